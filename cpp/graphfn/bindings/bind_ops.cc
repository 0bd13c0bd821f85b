// Op handles (`_core.op("AddV2", "Add")`) and the operator dunders of EagerTensor and
// SymbolicTensor, named as TF names the nodes they create ("add" for `x + y`).
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/op_call.h"
#include "graphfn/ir/op_registry.h"

namespace graphfn {

void bind_ops(py::module_& m) {
  py::class_<OpHandle>(m, "Op")
      .def_property_readonly("name", [](const OpHandle& h) { return h.op->name; })
      .def_property_readonly("node_name", [](const OpHandle& h) { return h.name; })
      .def_property_readonly("is_stateful", [](const OpHandle& h) { return h.op->stateful; })
      .def("__call__", [](const OpHandle& h, py::args args, py::kwargs kwargs) {
        return call_op_with_python_args(h, args.ptr(), kwargs.ptr());
      })
      .def("__repr__", [](const OpHandle& h) { return "<graphfn op " + h.op->name + ">"; });

  m.def("op", [](const std::string& op, py::object node_name) {
        return OpHandle{&find_op(op), node_name.is_none() ? op : node_name.cast<std::string>()};
      },
      py::arg("op"), py::arg("node_name") = py::none());
  m.def("op_names", [] { return OpRegistry::global().op_names(); });

  struct Dunder { const char* name; const char* op; const char* node; bool reflected; };
  const Dunder dunders[] = {
      {"__add__", "AddV2", "add", false},       {"__radd__", "AddV2", "add", true},
      {"__sub__", "Sub", "sub", false},         {"__rsub__", "Sub", "sub", true},
      {"__mul__", "Mul", "mul", false},         {"__rmul__", "Mul", "mul", true},
      {"__floordiv__", "FloorDiv", "floordiv", false}, {"__rfloordiv__", "FloorDiv", "floordiv", true},
      {"__mod__", "FloorMod", "mod", false},    {"__rmod__", "FloorMod", "mod", true},
      {"__pow__", "Pow", "pow", false},         {"__rpow__", "Pow", "pow", true},
      {"__lt__", "Less", "Less", false},        {"__le__", "LessEqual", "LessEqual", false},
      {"__gt__", "Greater", "Greater", false},  {"__ge__", "GreaterEqual", "GreaterEqual", false},
  };
  for (const char* type_name : {"EagerTensor", "SymbolicTensor"}) {
    py::object cls = m.attr(type_name);
    for (const Dunder& d : dunders) {
      OpHandle h{&find_op(d.op), d.node};
      const bool reflected = d.reflected;
      cls.attr(d.name) = py::cpp_function(
          [h, reflected](py::handle self, py::handle other) {
            py::handle in[2] = {reflected ? other : self, reflected ? self : other};
            return call_op(h, in, 2, AttrMap());
          },
          py::name(d.name), py::is_method(cls), py::arg("other"));
    }
    for (const auto& [name, op] : {std::pair{"__neg__", "Neg"}, std::pair{"__abs__", "Abs"}}) {
      OpHandle h{&find_op(op), op};
      cls.attr(name) = py::cpp_function([h](py::handle self) { return call_op(h, &self, 1, AttrMap()); },
                                        py::name(name), py::is_method(cls));
    }
  }
}

}  // namespace graphfn
