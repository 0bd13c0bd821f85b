// A Python str made once and kept for the process (attribute names looked up on every call).
#pragma once
#include <pybind11/pybind11.h>

namespace graphfn {

inline PyObject* interned(const char* s) {
  PyObject* p = PyUnicode_InternFromString(s);
  if (!p) throw pybind11::error_already_set();
  return p;
}

}  // namespace graphfn
