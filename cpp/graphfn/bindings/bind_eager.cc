// Eager op entry points: `_core.op("AddV2")` returns a callable handle; the handle converts
// inputs and attrs and runs the op. The arithmetic dunders of EagerTensor live here too.
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/eager_call.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/runtime/eager.h"

namespace graphfn {
namespace {

constexpr int kMaxTypeAttrs = 8;

DType dtype_from_py(py::handle v) {
  if (py::hasattr(v, "as_datatype_enum")) return static_cast<DType>(v.attr("as_datatype_enum").cast<int>());
  if (PyLong_Check(v.ptr())) return static_cast<DType>(v.cast<int>());
  throw py::type_error("Expected a DType, got " + py::repr(v).cast<std::string>());
}

AttrValue attr_from_py(const AttrDef& def, py::handle v) {
  const std::string& kind = def.kind;
  if (kind == "type") return dtype_from_py(v);
  if (kind == "bool") return v.cast<bool>();
  if (kind == "int") return v.cast<int64_t>();
  if (kind == "float") return v.cast<double>();
  if (kind == "string") return v.cast<std::string>();
  if (kind == "list(int)") return v.cast<std::vector<int64_t>>();
  if (kind == "tensor") return to_tensor(v, DType::kInvalid);
  if (kind == "shape") {
    std::vector<int64_t> dims;
    for (auto d : v) dims.push_back(d.is_none() ? Shape::kUnknownDim : d.cast<int64_t>());
    return Shape(std::move(dims));
  }
  throw py::type_error("unsupported attr kind " + kind);
}

AttrMap attrs_from_kwargs(const OpDef& op, const py::kwargs& kwargs) {
  AttrMap attrs;
  for (auto item : kwargs) {
    const std::string name = item.first.cast<std::string>();
    const AttrDef* def = op.find_attr(name);
    if (!def) throw py::type_error(op.name + " got an unexpected attr '" + name + "'");
    if (item.second.is_none()) continue;
    attrs.set(name, attr_from_py(*def, item.second));
  }
  return attrs;
}

py::object wrap_outputs(const OpDef& op, std::vector<Tensor>& outputs) {
  if (op.outputs.size() == 1 && !op.outputs[0].is_list()) return py::cast(std::move(outputs[0]));
  py::tuple out(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) out[i] = py::cast(std::move(outputs[i]));
  return std::move(out);
}

// The dtype a Python (non-tensor) input should be converted to, if already decided.
DType wanted_dtype(const OpDef& op, const ArgDef& arg, const DType* known) {
  if (arg.fixed_type != DType::kInvalid) return arg.fixed_type;
  const int i = op.type_attr_index(arg.type_attr);
  if (known[i] != DType::kInvalid) return known[i];
  const AttrDef* attr = op.find_attr(arg.type_attr);
  if (attr && attr->has_default) return std::get<DType>(attr->default_value);
  return DType::kInvalid;
}

// True for Python ints (or lists of them) that only fit int64.
bool needs_int64(py::handle h) {
  if (!PyLong_Check(h.ptr()) && !PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) return false;
  try {
    return to_tensor(h, DType::kInvalid).dtype() == DType::kInt64;
  } catch (py::error_already_set&) {
    return false;
  } catch (py::builtin_exception&) {
    return false;
  }
}

template <typename Fn>
void for_each_input(const OpDef& op, const py::handle* inputs, int num_inputs, Fn&& fn) {
  for (int k = 0; k < num_inputs; ++k) {
    const ArgDef& arg = op.inputs[k];
    if (arg.is_list()) {
      for (auto item : py::reinterpret_borrow<py::sequence>(inputs[k])) fn(arg, item);
    } else {
      fn(arg, inputs[k]);
    }
  }
}

}  // namespace

const OpDef& find_op(const std::string& name) {
  const OpDef* op = OpRegistry::global().find(name);
  if (!op) throw_if_error(errors::NotFound("Op type not registered '", name, "'"));
  return *op;
}

py::object call_op(const OpDef& op, const py::handle* inputs, int num_inputs, const AttrMap& attrs) {
  if (num_inputs != static_cast<int>(op.inputs.size())) {
    throw py::type_error(op.name + " takes " + std::to_string(op.inputs.size()) + " inputs, got " +
                         std::to_string(num_inputs));
  }
  DType known[kMaxTypeAttrs];
  for (size_t i = 0; i < op.type_attr_names.size(); ++i) known[i] = attrs.get_type(op.type_attr_names[i], DType::kInvalid);
  // Tensors decide the type attrs first, so Python values follow them (tf.constant(1.) + 2).
  for_each_input(op, inputs, num_inputs, [&](const ArgDef& arg, py::handle h) {
    if (arg.type_attr.empty() || !is_eager_tensor(h)) return;
    DType& slot = known[op.type_attr_index(arg.type_attr)];
    if (slot == DType::kInvalid) slot = h.cast<const Tensor&>().dtype();
  });
  std::vector<Tensor> tensors;
  tensors.reserve(num_inputs);
  for_each_input(op, inputs, num_inputs, [&](const ArgDef& arg, py::handle h) {
    if (is_eager_tensor(h)) {
      tensors.push_back(h.cast<const Tensor&>());
      return;
    }
    DType want = wanted_dtype(op, arg, known);
    // An int32 default does not wrap big Python ints (tf.reshape(x, [2**40, 2**40]) reports the
    // huge shape, as in TF).
    if (want == DType::kInt32 && !arg.type_attr.empty() && known[op.type_attr_index(arg.type_attr)] == DType::kInvalid &&
        needs_int64(h)) {
      want = DType::kInt64;
    }
    // A Python value that does not fit the wanted dtype keeps its own; the op's type check
    // then reports the mismatch as TF does ("expected to be a int32 tensor but is a float").
    try {
      tensors.push_back(to_tensor(h, want));
    } catch (py::type_error&) {
      tensors.push_back(to_tensor(h, DType::kInvalid));
    }
    if (!arg.type_attr.empty()) {
      DType& slot = known[op.type_attr_index(arg.type_attr)];
      if (slot == DType::kInvalid) slot = tensors.back().dtype();
    }
  });
  std::vector<Tensor> outputs;
  throw_if_error(execute_eager(op, tensors.data(), static_cast<int>(tensors.size()), attrs, &outputs));
  return wrap_outputs(op, outputs);
}

void bind_eager(py::module_& m) {
  py::class_<OpDef>(m, "Op")
      .def_property_readonly("name", [](const OpDef& op) { return op.name; })
      .def_property_readonly("is_stateful", [](const OpDef& op) { return op.stateful; })
      .def("__call__", [](const OpDef& op, py::args args, py::kwargs kwargs) {
        const AttrMap attrs = kwargs.empty() ? AttrMap() : attrs_from_kwargs(op, kwargs);
        std::vector<py::handle> inputs(args.begin(), args.end());
        return call_op(op, inputs.data(), static_cast<int>(inputs.size()), attrs);
      })
      .def("__repr__", [](const OpDef& op) { return "<graphfn op " + op.name + ">"; });

  m.def("op", [](const std::string& name) { return &find_op(name); },
        py::return_value_policy::reference);
  m.def("op_names", [] { return OpRegistry::global().op_names(); });

  // Arithmetic dunders on EagerTensor: the hottest eager path, so no Python in between.
  py::object cls = m.attr("EagerTensor");
  struct Dunder { const char* name; const char* op; bool reflected; };
  const Dunder dunders[] = {
      {"__add__", "AddV2", false},       {"__radd__", "AddV2", true},
      {"__sub__", "Sub", false},         {"__rsub__", "Sub", true},
      {"__mul__", "Mul", false},         {"__rmul__", "Mul", true},
      {"__floordiv__", "FloorDiv", false}, {"__rfloordiv__", "FloorDiv", true},
      {"__mod__", "FloorMod", false},    {"__rmod__", "FloorMod", true},
      {"__pow__", "Pow", false},         {"__rpow__", "Pow", true},
      {"__lt__", "Less", false},         {"__le__", "LessEqual", false},
      {"__gt__", "Greater", false},      {"__ge__", "GreaterEqual", false},
  };
  for (const Dunder& d : dunders) {
    const OpDef* op = &find_op(d.op);
    const bool reflected = d.reflected;
    cls.attr(d.name) = py::cpp_function(
        [op, reflected](py::handle self, py::handle other) {
          py::handle in[2] = {reflected ? other : self, reflected ? self : other};
          return call_op(*op, in, 2, AttrMap());
        },
        py::name(d.name), py::is_method(cls), py::arg("other"));
  }
  const std::pair<const char*, const char*> unary[] = {{"__neg__", "Neg"}, {"__abs__", "Abs"}};
  for (const auto& [name, op_name] : unary) {
    const OpDef* op = &find_op(op_name);
    cls.attr(name) = py::cpp_function(
        [op](py::handle self) { return call_op(*op, &self, 1, AttrMap()); }, py::name(name),
        py::is_method(cls));
  }
}

}  // namespace graphfn
