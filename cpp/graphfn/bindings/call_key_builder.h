// Builds a call's CallKey (runtime/call_key.h) from its bound Python arguments, and collects
// what the compiled function is fed: tensor arguments and each distinct variable's handle, in
// the order the traced graph's placeholders expect (nest's order: sequences in order, dicts by
// sorted key). Values C++ cannot key (a Python trace type other than the built-in ones) are keyed
// by a function Python registers; anything that would need converting to a tensor (NumPy
// arrays, symbolic tensors) makes the builder give up, and the call takes the Python path.
#pragma once
#include <vector>

#include <pybind11/pybind11.h>

#include "graphfn/core/tensor.h"
#include "graphfn/runtime/call_key.h"

namespace graphfn {
namespace py = pybind11;

// The Python classes and functions the builder needs, registered once from Python
// (python/graphfn/function/polymorphic_function.py) when the first call is cached.
struct CallKeyHooks {
  py::object variable_type;   // graphfn.Variable
  py::object tensor_type;     // graphfn's Tensor base class (symbolic tensors are not keyed here)
  py::object opaque_key;      // value -> a hashable trace type, or None to give up
};
CallKeyHooks& call_key_hooks();
bool call_key_hooks_set();

class CallKeyBuilder {
 public:
  void clear();
  // Adds one bound argument; false if the call must take the Python path.
  bool add(PyObject* value);

  CallKey& key() { return key_; }
  // The tensors fed, inside the Python objects fed (tensor arguments, variable handles; held
  // here, in feeding order, so they outlive the run whatever Python code does meanwhile).
  const std::vector<const Tensor*>& feeds() const { return feeds_; }
  const std::vector<py::object>& feed_objects() const { return feed_objects_; }
  // The trainable variables passed: an active tape watches them, as TF does.
  const std::vector<PyObject*>& trainable_variables() const { return trainable_variables_; }

 private:
  bool add_value(PyObject* value, int depth);
  bool add_dict(PyObject* dict, int depth);
  bool add_variable(PyObject* variable);
  bool add_other(PyObject* value);

  CallKey key_;
  std::vector<const Tensor*> feeds_;
  std::vector<py::object> feed_objects_;
  std::vector<PyObject*> trainable_variables_;
  std::vector<py::object> handles_;  // distinct variable handles, by alias number
};

}  // namespace graphfn
