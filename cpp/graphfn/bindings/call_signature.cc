#include "graphfn/bindings/call_signature.h"

namespace graphfn {
namespace {

// Names in calls and in signatures are interned strings almost always: compare pointers first.
bool same_name(PyObject* a, PyObject* b) {
  if (a == b) return true;
  if (!PyUnicode_Check(a) || !PyUnicode_Check(b)) return false;
  if (PyUnicode_CHECK_INTERNED(a) && PyUnicode_CHECK_INTERNED(b)) return false;  // distinct interned strings differ
  return PyUnicode_Compare(a, b) == 0;
}

}  // namespace

CallSignature::CallSignature(std::vector<Parameter> parameters) : parameters_(std::move(parameters)), set_(true) {
  for (size_t i = 0; i < parameters_.size(); ++i) {
    if (parameters_[i].kind == kVarPositional) var_positional_ = static_cast<int>(i);
    if (parameters_[i].kind == kVarKeyword) var_keyword_ = static_cast<int>(i);
  }
}

Py_ssize_t CallSignature::find_keyword(const Parameter& p, PyObject* kwnames) {
  const Py_ssize_t n = PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t j = 0; j < n; ++j) {
    if (PyTuple_GET_ITEM(kwnames, j) == p.name.ptr()) return j;
  }
  for (Py_ssize_t j = 0; j < n; ++j) {
    if (same_name(PyTuple_GET_ITEM(kwnames, j), p.name.ptr())) return j;
  }
  return -1;
}

bool CallSignature::bind(PyObject* const* args, Py_ssize_t num_args, PyObject* kwnames,
                         std::vector<py::object>* values) const {
  if (!set_) return false;
  const Py_ssize_t num_kwargs = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  PyObject* const* kwvalues = args + num_args;
  values->assign(parameters_.size(), py::object());
  Py_ssize_t next_arg = 0;
  Py_ssize_t kwargs_used = 0;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    const Parameter& p = parameters_[i];
    py::object& value = (*values)[i];
    if (p.kind == kVarPositional) {
      py::tuple rest(num_args - next_arg);
      for (Py_ssize_t j = next_arg; j < num_args; ++j) {
        Py_INCREF(args[j]);
        PyTuple_SET_ITEM(rest.ptr(), j - next_arg, args[j]);
      }
      value = std::move(rest);
      next_arg = num_args;
      continue;
    }
    if (p.kind == kVarKeyword) continue;  // filled below from the unused keywords
    PyObject* keyword = nullptr;
    if (num_kwargs > 0) {
      const Py_ssize_t at = find_keyword(p, kwnames);
      if (at >= 0) keyword = kwvalues[at];
    }
    const bool positional = p.kind == kPositionalOnly || p.kind == kPositionalOrKeyword;
    if (positional && next_arg < num_args) {
      if (keyword) return false;  // "multiple values for argument": Python raises it
      value = py::reinterpret_borrow<py::object>(args[next_arg++]);
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
      for (Py_ssize_t j = 0; j < num_kwargs; ++j) {
        PyObject* key = PyTuple_GET_ITEM(kwnames, j);
        bool named = false;
        for (const Parameter& p : parameters_) {
          if (p.kind == kPositionalOrKeyword || p.kind == kKeywordOnly) named = named || same_name(p.name.ptr(), key);
        }
        if (!named && PyDict_SetItem(extra.ptr(), key, kwvalues[j]) < 0) throw py::error_already_set();
      }
    }
    (*values)[var_keyword_] = std::move(extra);
  } else if (kwargs_used < num_kwargs) {
    return false;  // an unexpected keyword argument (or a name given twice)
  }
  return true;
}

}  // namespace graphfn
