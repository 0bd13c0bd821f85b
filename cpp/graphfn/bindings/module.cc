// graphfn._core: the C++ runtime seen from Python. A table of contents; each bind_* converts
// and forwards, with no semantics of its own.
#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/device_hook.h"
#include "graphfn/runtime/builtin_ops.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "graphfn C++ core";
  graphfn::install_builtin_ops();
  graphfn::bind_errors(m);
  graphfn::bind_tensor(m);
  graphfn::bind_graph(m);
  graphfn::bind_trace_context(m);
  graphfn::bind_ops(m);
  graphfn::bind_tensor_slots(m);
  graphfn::bind_function(m);
  graphfn::bind_variables(m);
  graphfn::bind_random(m);
  graphfn::bind_control_flow(m);
  graphfn::bind_tape(m);
  graphfn::bind_saved_graph(m);
  graphfn::bind_defined_at(m);
  graphfn::bind_script(m);
  graphfn::bind_custom_gradient(m);
  graphfn::bind_data(m);
  graphfn::bind_io(m);
  graphfn::bind_data_functions(m);
  graphfn::bind_device_hook(m);
  graphfn::bind_threading(m);
  graphfn::bind_interactive_output(m);
}
