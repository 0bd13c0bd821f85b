// OutputStructure: how a concrete function's results become the Python value its function
// returned (nested tuples, lists, namedtuples and dicts of tensors and None), described once per
// concrete function (python/graphfn/function/concrete_function.py builds it) so the call cache
// packs results without running Python.
#pragma once
#include <memory>
#include <vector>

#include <pybind11/pybind11.h>

#include "graphfn/core/tensor.h"

namespace graphfn {
namespace py = pybind11;

class OutputStructure {
 public:
  enum Kind { kTensor, kConstant, kList, kTuple, kNamedTuple, kDict };

  // Leaves and containers; `type` is the container's class (for namedtuples and subclasses of
  // list, tuple or dict, rebuilt by calling it), `keys` a dict's keys in its own order.
  static std::shared_ptr<OutputStructure> tensor(int index);
  static std::shared_ptr<OutputStructure> constant(py::object value);
  static std::shared_ptr<OutputStructure> container(Kind kind, py::object type, py::object keys,
                                                    std::vector<std::shared_ptr<const OutputStructure>> children);

  // The structure with result i at each tensor leaf i. Results are moved out.
  py::object pack(std::vector<Tensor>& results) const;
  int num_tensors() const;

 private:
  Kind kind_ = kConstant;
  int index_ = -1;
  py::object value_;  // constant value, or the container's class
  py::object keys_;   // kDict: tuple of keys, parallel to children_
  std::vector<std::shared_ptr<const OutputStructure>> children_;
};

// _core.OutputStructure (called by bind_function).
void bind_output_structure(py::module_& m);

}  // namespace graphfn
