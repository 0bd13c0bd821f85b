// One bind_* function per binding file; module.cc calls them in order.
#pragma once
#include <pybind11/pybind11.h>

namespace graphfn {
namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_tensor(py::module_& m);
void bind_graph(py::module_& m);
void bind_trace_context(py::module_& m);
void bind_ops(py::module_& m);
void bind_function(py::module_& m);
void bind_variables(py::module_& m);
void bind_tensor_slots(py::module_& m);  // after bind_ops: overrides the dunders' C slots
void bind_random(py::module_& m);
void bind_control_flow(py::module_& m);
void bind_tape(py::module_& m);
void bind_saved_graph(py::module_& m);
void bind_defined_at(py::module_& m);
void bind_script(py::module_& m);
void bind_custom_gradient(py::module_& m);
void bind_data(py::module_& m);
void bind_io(py::module_& m);
void bind_data_functions(py::module_& m);  // bind_data_fn.cc: flat_map, interleave, window, ...
void bind_threading(py::module_& m);
void bind_interactive_output(py::module_& m);  // tf.print into Jupyter cells

}  // namespace graphfn
