#include "graphfn/bindings/call_signature.h"

namespace graphfn {

CallSignature::CallSignature(std::vector<Parameter> parameters) : parameters_(std::move(parameters)), set_(true) {
  for (size_t i = 0; i < parameters_.size(); ++i) {
    if (parameters_[i].kind == kVarPositional) var_positional_ = static_cast<int>(i);
    if (parameters_[i].kind == kVarKeyword) var_keyword_ = static_cast<int>(i);
  }
}

bool CallSignature::bind(PyObject* args, PyObject* kwargs, std::vector<py::object>* values) const {
  if (!set_) return false;
  const Py_ssize_t num_args = PyTuple_GET_SIZE(args);
  const Py_ssize_t num_kwargs = kwargs ? PyDict_GET_SIZE(kwargs) : 0;
  values->assign(parameters_.size(), py::object());
  Py_ssize_t next_arg = 0;
  Py_ssize_t kwargs_used = 0;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    const Parameter& p = parameters_[i];
    py::object& value = (*values)[i];
    if (p.kind == kVarPositional) {
      value = py::reinterpret_steal<py::object>(PyTuple_GetSlice(args, next_arg, num_args));
      if (!value) throw py::error_already_set();
      next_arg = num_args;
      continue;
    }
    if (p.kind == kVarKeyword) continue;  // filled below from the unused keywords
    PyObject* keyword = nullptr;
    if (num_kwargs > 0) {
      keyword = PyDict_GetItemWithError(kwargs, p.name.ptr());
      if (!keyword && PyErr_Occurred()) throw py::error_already_set();
    }
    const bool positional = p.kind == kPositionalOnly || p.kind == kPositionalOrKeyword;
    if (positional && next_arg < num_args) {
      if (keyword) return false;  // "multiple values for argument": Python raises it
      value = py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(args, next_arg++));
    } else if (keyword && p.kind != kPositionalOnly) {
      value = py::reinterpret_borrow<py::object>(keyword);
      ++kwargs_used;
    } else if (keyword) {
      return false;  // a positional-only parameter passed by keyword
    } else if (p.default_) {
      value = p.default_;
    } else {
      return false;  // missing argument
    }
  }
  if (next_arg < num_args) return false;  // too many positional arguments
  if (var_keyword_ >= 0) {
    py::dict extra;
    if (kwargs_used < num_kwargs) {
      PyObject *key = nullptr, *item = nullptr;
      Py_ssize_t pos = 0;
      while (PyDict_Next(kwargs, &pos, &key, &item)) {
        bool named = false;
        for (const Parameter& p : parameters_) {
          if (p.kind == kPositionalOrKeyword || p.kind == kKeywordOnly) {
            named = named || p.name.ptr() == key ||
                    (PyUnicode_Check(key) && PyUnicode_Compare(p.name.ptr(), key) == 0);
          }
        }
        if (!named) extra[key] = item;
      }
    }
    (*values)[var_keyword_] = std::move(extra);
  } else if (kwargs_used < num_kwargs) {
    return false;  // an unexpected keyword argument
  }
  return true;
}

}  // namespace graphfn
