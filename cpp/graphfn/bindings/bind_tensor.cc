// The EagerTensor Python type: a graphfn::Tensor. Python adds the TF-shaped API on top
// (python/graphfn/framework/tensor.py); here are the data accessors and the arithmetic
// dunders, which stay in C++ because they are the eager hot path.
#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/device_hook.h"
#include "graphfn/bindings/eager_tensor_object.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/bindings/op_call.h"

namespace graphfn {

void bind_tensor(py::module_& m) {
  py::class_<Tensor>(m, "EagerTensor")
      .def_property_readonly("_dtype_enum", [](const Tensor& t) { return static_cast<int>(t.dtype()); })
      .def_property_readonly("_rank", &Tensor::rank)
      .def_property_readonly("_num_elements", &Tensor::num_elements)
      .def("_shape_tuple", [](const Tensor& t) {
        py::tuple out(t.rank());
        for (int i = 0; i < t.rank(); ++i) out[i] = py::int_(t.dim(i));
        return out;
      })
      .def("_numpy", [](const Tensor& t) { return to_numpy(t); })
      .def("_buffer_address", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.raw_data()); });
  set_eager_tensor_type(m.attr("EagerTensor"));
  install_eager_tensor_object(m.attr("EagerTensor"));

  // Python values, tensors and objects with __tf_tensor__ (a Variable read while tracing gives a
  // graph tensor, which is returned as it is, dtype-checked).
  m.def("to_tensor", [](py::handle value, int dtype) -> py::object {
        const DType want = dtype_from_number(dtype);
        py::object converted = as_tensor_input(value);
        if (const SymbolicTensor* t = symbolic_tensor_ptr(converted)) {
          const DType have = t->graph->dtype(t->endpoint);
          if (want != DType::kInvalid && have != want) {
            throw py::value_error(std::string("Tensor conversion requested dtype ") + dtype_name(want) +
                                  " for Tensor with dtype " + dtype_name(have) + ": " +
                                  py::repr(converted).cast<std::string>());
          }
          return converted;
        }
        if (device_hook_pending() && eager_tensor_ptr(converted) == nullptr) {
          // A tensor made from a Python value: TF runs it as the op _EagerConst.
          const bool show = run_device_hook("_EagerConst");
          py::object result = py::cast(to_tensor(converted, want));
          if (show) run_device_hook_outputs("_EagerConst", result);
          return result;
        }
        return py::cast(to_tensor(converted, want));
      },
      py::arg("value"), py::arg("dtype") = 0);
}

}  // namespace graphfn
