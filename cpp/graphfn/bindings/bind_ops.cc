// Op handles (`_core.op("AddV2", "Add")`) and the operator dunders of EagerTensor and
// SymbolicTensor, named as TF names the nodes they create ("add" for `x + y`).
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/bindings/op_call.h"
#include "graphfn/bindings/operators.h"
#include "graphfn/ir/op_def_text.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/kernels/lapack.h"

namespace graphfn {
namespace {

// None for an unknown rank, else the dims with None for unknown ones.
py::object shape_to_python(const Shape& shape) {
  if (!shape.known_rank()) return py::none();
  py::list dims;
  for (int64_t d : shape.dims()) dims.append(d < 0 ? py::object(py::none()) : py::object(py::int_(d)));
  return dims;
}

// An attr's default as a Python value (dtypes as their DataType numbers), for raw_ops signatures.
py::object attr_default_to_python(const AttrValue& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return py::int_(*i);
  if (const auto* f = std::get_if<double>(&v)) return py::float_(*f);
  if (const auto* b = std::get_if<bool>(&v)) return py::bool_(*b);
  if (const auto* s = std::get_if<std::string>(&v)) return py::str(*s);
  if (const auto* dt = std::get_if<DType>(&v)) return py::int_(static_cast<int>(*dt));
  if (const auto* ints = std::get_if<std::vector<int64_t>>(&v)) return py::cast(*ints);
  if (const auto* types = std::get_if<std::vector<DType>>(&v)) {
    py::list out;
    for (DType dt : *types) out.append(static_cast<int>(dt));
    return out;
  }
  if (const auto* shape = std::get_if<Shape>(&v)) return shape_to_python(*shape);
  if (const auto* shapes = std::get_if<std::vector<Shape>>(&v)) {
    py::list out;
    for (const Shape& s : *shapes) out.append(shape_to_python(s));
    return out;
  }
  return py::none();
}

// The parts of an OpDef a Python signature is made from (python/graphfn/raw_ops.py).
py::dict op_def_for_python(const OpDef& op) {
  auto args = [](const std::vector<ArgDef>& defs) {
    py::list out;
    for (const ArgDef& a : defs) out.append(py::make_tuple(a.name, a.type_attr, a.number_attr, a.is_list()));
    return out;
  };
  py::list attrs;
  for (const AttrDef& a : op.attrs) {
    attrs.append(py::make_tuple(a.name, a.kind, a.has_default,
                                a.has_default ? attr_default_to_python(a.default_value) : py::none()));
  }
  py::dict d;
  d["name"] = op.name;
  d["inputs"] = args(op.inputs);
  d["outputs"] = args(op.outputs);
  d["attrs"] = attrs;
  d["stateful"] = op.stateful;
  // As TF's gradient registry sees the op: a function, declared non-differentiable (gradients
  // are None), or no entry (LookupError).
  d["gradient"] = op.grad_fn ? "function" : op.not_differentiable ? "none" : "missing";
  return d;
}

}  // namespace

void bind_ops(py::module_& m) {
  py::class_<OpHandle>(m, "Op")
      .def_property_readonly("name", [](const OpHandle& h) { return h.op->name; })
      .def_property_readonly("node_name", [](const OpHandle& h) { return h.name; })
      .def_property_readonly("is_stateful", [](const OpHandle& h) { return h.op->stateful; })
      .def("__call__", [](const OpHandle& h, py::args args, py::kwargs kwargs) {
        return call_op_with_python_args(h, args.ptr(), kwargs.ptr());
      })
      .def("__repr__", [](const OpHandle& h) { return "<graphfn op " + h.op->name + ">"; });

  m.def("op", [](const std::string& op, py::object node_name, py::object string_op) {
        // As TF: eager ops ignore `name=`; graph building takes a str or bytes.
        auto text = [&](py::handle v) {
          if (PyUnicode_Check(v.ptr()) || PyBytes_Check(v.ptr())) return py_string_bytes(v);
          if (!current_graph()) return op;
          throw py::type_error("expected string or bytes-like object, got '" +
                               py::str(py::type::of(v).attr("__name__")).cast<std::string>() + "'");
        };
        OpHandle h{&find_op(op), node_name.is_none() ? op : text(node_name)};
        if (!string_op.is_none()) {
          // tf.add: Python operands take the dtype as a hint; strings run `string_op` (Add).
          h.hint_python_inputs = true;
          h.string_op = &find_op(py_string_bytes(string_op));
        }
        return h;
      },
      py::arg("op"), py::arg("node_name") = py::none(), py::arg("string_op") = py::none());
  m.def("convert_reflected_operand", [](py::handle x, py::handle like) { return convert_reflected_operand(x, like); });
  // Where OpenBLAS's library is (python/graphfn/util/openblas.py); loaded on first linalg use.
  m.def("set_openblas_library", [](const std::string& path) { lapack::set_library_path(path); });
  m.def("op_names", [] { return OpRegistry::global().op_names(); });
  m.def("op_def_summary", [](const std::string& op) { return summarize_op_def(find_op(op)); });
  m.def("op_def", [](const std::string& op) { return op_def_for_python(find_op(op)); });

  init_operators();
  struct Dunder { const char* name; BinaryOperator op; bool reflected; };
  const Dunder dunders[] = {
      {"__add__", BinaryOperator::kAdd, false},           {"__radd__", BinaryOperator::kAdd, true},
      {"__sub__", BinaryOperator::kSub, false},           {"__rsub__", BinaryOperator::kSub, true},
      {"__mul__", BinaryOperator::kMul, false},           {"__rmul__", BinaryOperator::kMul, true},
      {"__floordiv__", BinaryOperator::kFloorDiv, false}, {"__rfloordiv__", BinaryOperator::kFloorDiv, true},
      {"__mod__", BinaryOperator::kMod, false},           {"__rmod__", BinaryOperator::kMod, true},
      {"__pow__", BinaryOperator::kPow, false},           {"__rpow__", BinaryOperator::kPow, true},
  };
  struct Comparison { const char* name; const char* op; };
  const Comparison comparisons[] = {
      {"__lt__", "Less"}, {"__le__", "LessEqual"}, {"__gt__", "Greater"}, {"__ge__", "GreaterEqual"}};
  for (const char* type_name : {"EagerTensor", "SymbolicTensor"}) {
    py::object cls = m.attr(type_name);
    for (const Dunder& d : dunders) {
      const BinaryOperator op = d.op;
      if (d.reflected) {
        cls.attr(d.name) = py::cpp_function(
            [op](py::handle self, py::handle other) { return reflected_operator(op, other, self); },
            py::name(d.name), py::is_method(cls), py::arg("other"));
      } else {
        cls.attr(d.name) = py::cpp_function(
            [op](py::handle self, py::handle other) { return forward_operator(op, self, other); },
            py::name(d.name), py::is_method(cls), py::arg("other"));
      }
    }
    for (const Comparison& c : comparisons) {
      OpHandle h{&find_op(c.op), c.op};
      cls.attr(c.name) = py::cpp_function(
          [h](py::handle self, py::handle other) {
            py::handle in[2] = {self, other};
            return call_op(h, in, 2, AttrMap());
          },
          py::name(c.name), py::is_method(cls), py::arg("other"));
    }
    for (const auto& [name, op] : {std::pair{"__neg__", "Neg"}, std::pair{"__abs__", "Abs"}}) {
      OpHandle h{&find_op(op), op};
      cls.attr(name) = py::cpp_function([h](py::handle self) { return call_op(h, &self, 1, AttrMap()); },
                                        py::name(name), py::is_method(cls));
    }
  }
}

}  // namespace graphfn
