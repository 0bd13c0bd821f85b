// tf.print inside IPython/Jupyter: the deferred-output listener (kernels/deferred_output.h) that
// sends stdout/stderr text to Python's sys.stdout, so it becomes the cell's stdout stream in the
// order of Python's own prints, as TensorFlow's "interactive logging" does. Outside IPython the
// text goes to file descriptors 1 and 2 as before.
#include <Python.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/kernels/deferred_output.h"

namespace graphfn {
namespace {

bool write_to_python_stdout(std::string_view text) {
  if (!Py_IsInitialized() || _Py_IsFinalizing()) return false;  // no Python left: use the descriptor
  py::gil_scoped_acquire gil;
  PyObject* stdout_object = PySys_GetObject("stdout");  // borrowed; looked up at each write, as print does
  if (stdout_object == nullptr || stdout_object == Py_None) return false;
  // Printed strings may hold any bytes: undecodable ones show as U+FFFD instead of failing the print.
  PyObject* str = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  if (str == nullptr) {
    PyErr_Clear();
    return false;
  }
  PyObject* result = PyObject_CallMethod(stdout_object, "write", "O", str);
  Py_DECREF(str);
  if (result == nullptr) {
    PyErr_Clear();  // a broken sys.stdout: the text still reaches the descriptor
    return false;
  }
  Py_DECREF(result);
  return true;
}

}  // namespace

void bind_interactive_output(py::module_& m) {
  m.def(
      "set_interactive_output",
      [](bool enabled) { set_output_listener(enabled ? &write_to_python_stdout : nullptr); },
      py::arg("enabled"),
      "Sends tf.print's stdout/stderr output to Python's sys.stdout (True) or to the process's "
      "file descriptors (False).");
}

}  // namespace graphfn
