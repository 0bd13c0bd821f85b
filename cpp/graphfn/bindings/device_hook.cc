// The eager device hook (device_hook.h): the initialized flag and the Python callable.
#include "graphfn/bindings/device_hook.h"

namespace graphfn {

namespace device_hook_detail {
std::atomic<bool> pending{true};  // true until the first eager op marks the runtime initialized
}  // namespace device_hook_detail

namespace {

bool g_device_runtime_initialized = false;   // written and read with the GIL held
PyObject* g_device_hook = nullptr;   // a strong reference, or null

}  // namespace

bool run_device_hook(const char* op_type) {
  if (g_device_hook == nullptr) {
    g_device_runtime_initialized = true;
    device_hook_detail::pending.store(false, std::memory_order_relaxed);
    return false;
  }
  py::object hook = py::reinterpret_borrow<py::object>(g_device_hook);  // the hook may replace itself
  const bool show_outputs = hook(op_type, py::none()).cast<bool>();
  g_device_runtime_initialized = true;  // not when the hook raised: TF's failed initialization leaves it uninitialized
  return show_outputs;
}

void run_device_hook_outputs(const char* op_type, py::handle outputs) {
  if (g_device_hook == nullptr) return;
  py::object hook = py::reinterpret_borrow<py::object>(g_device_hook);
  hook(op_type, outputs);
}

void run_device_hook_log_only(const char* op_type) {
  if (g_device_hook == nullptr) {
    run_device_hook(op_type);  // marks the runtime initialized
    return;
  }
  py::object hook = py::reinterpret_borrow<py::object>(g_device_hook);
  hook(op_type, py::bool_(false));
}

void bind_device_hook(py::module_& m) {
  m.def("_set_device_hook", [](py::object hook) {
        PyObject* old = g_device_hook;
        g_device_hook = hook.is_none() ? nullptr : hook.release().ptr();
        Py_XDECREF(old);
        device_hook_detail::pending.store(g_device_hook != nullptr || !g_device_runtime_initialized, std::memory_order_relaxed);
      },
      py::arg("hook"),
      "hook(op_type, outputs) is called for every eager op while set: before the op runs with outputs "
      "None (a true result asks for a second call with the op's outputs), or with False for an op "
      "only to log; None removes it.");
  m.def("_eager_context_initialized", []() { return g_device_runtime_initialized; },
        "True once an eager op ran or an eager tensor was made (tf.config's device settings are "
        "then fixed).");
  m.def("_mark_eager_context_initialized", []() { g_device_runtime_initialized = true; });
}

}  // namespace graphfn
