// CallSignature: a graphfn.function's Python parameters, so the C++ call cache can bind a call's
// arguments to them as inspect.Signature.bind + apply_defaults does (positional and keyword
// arguments, defaults, *args and **kwargs). Binding only has to succeed on valid calls: any call
// it does not accept goes to the Python path, which binds again and raises TF's TypeError.
#pragma once
#include <vector>

#include <pybind11/pybind11.h>

namespace graphfn {
namespace py = pybind11;

class CallSignature {
 public:
  // inspect.Parameter.kind values.
  enum Kind { kPositionalOnly = 0, kPositionalOrKeyword = 1, kVarPositional = 2, kKeywordOnly = 3, kVarKeyword = 4 };
  struct Parameter {
    py::object name;      // a str
    Kind kind;
    py::object default_;  // null when the parameter has no default
  };

  CallSignature() = default;
  explicit CallSignature(std::vector<Parameter> parameters);

  size_t size() const { return parameters_.size(); }

  // One value per parameter, in parameter order (*args as a tuple, **kwargs as a dict); false
  // when the call does not bind. The arguments come as in Python's vectorcall protocol:
  // `args[0:num_args]` positional, then one value per name in `kwnames` (a tuple of str, or null).
  bool bind(PyObject* const* args, Py_ssize_t num_args, PyObject* kwnames, std::vector<py::object>* values) const;

 private:
  // The index in `kwnames` of parameter `p`'s name, or -1.
  static Py_ssize_t find_keyword(const Parameter& p, PyObject* kwnames);

  std::vector<Parameter> parameters_;
  bool set_ = false;
  int var_positional_ = -1;
  int var_keyword_ = -1;
};

}  // namespace graphfn
