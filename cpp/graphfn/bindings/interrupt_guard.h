// Ctrl-C for graph runs called from Python (runtime/interrupt.h). A run called on Python's main
// thread (where Python runs signal handlers) stops at SIGINT and raises what Python's handler
// raises: KeyboardInterrupt. The hook is (re)installed when a function is compiled, and only
// while Python's SIGINT handler is its default one: a program with its own handler keeps it.
#pragma once
#include <optional>

#include "graphfn/bindings/bind.h"
#include "graphfn/runtime/interrupt.h"

namespace graphfn {

inline bool on_python_main_thread() {
  static const unsigned long main_ident =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  return PyThread_get_thread_ident() == main_ident;
}

// With the GIL held, when a function is compiled: hook SIGINT while Python's default handler is
// in place, else leave the program's own handler alone.
inline void refresh_sigint_hook() {
  if (!on_python_main_thread()) return;
  py::module_ signal = py::module_::import("signal");
  if (signal.attr("getsignal")(signal.attr("SIGINT")).is(signal.attr("default_int_handler"))) {
    install_sigint_hook();
  } else {
    remove_sigint_hook();
  }
}

class InterruptGuard {
 public:
  // Construct and destroy with the GIL held.
  InterruptGuard() {
    if (on_python_main_thread()) scope_.emplace();
  }
  // With the GIL held after the run: a run SIGINT stopped raises Python's pending exception
  // (KeyboardInterrupt from the default handler).
  void raise_if_interrupted(const Status& run) const {
    if (!scope_ || run.code() != Code::kCancelled || !scope_->interrupted()) return;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    PyErr_SetNone(PyExc_KeyboardInterrupt);  // the handler returned: the run stopped anyway
    throw py::error_already_set();
  }

 private:
  std::optional<InterruptScope> scope_;  // no allocation per call
};

}  // namespace graphfn
