// Python values <-> graphfn::Tensor. The only place that knows how Python scalars, nested lists
// and NumPy arrays become tensors (TF's rules: Python float -> float32, int -> int32 (int64 when
// too large), bool -> bool, str/bytes -> string; NumPy arrays keep their dtype).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "graphfn/core/tensor.h"

namespace graphfn {
namespace py = pybind11;

// Converts `value` to a tensor. With want != kInvalid the result has that dtype: Python values
// are converted to it and a mismatch raises TypeError like TF (Python numbers and sequences of
// them never lose a fraction or become bools; NumPy values are cast, as TF casts them). Raises
// TypeError/ValueError on failure.
Tensor to_tensor(py::handle value, DType want);

// A Python str (as UTF-8) or bytes as bytes. A str that is not valid Unicode (a lone surrogate)
// raises TF's ValueError; anything else, TypeError.
std::string py_string_bytes(py::handle item);

// The Tensor inside a graphfn EagerTensor, or null for anything else. A type-pointer compare
// and a field read: this runs for every input of every eager op.
const Tensor* eager_tensor_ptr(py::handle value);
inline bool is_eager_tensor(py::handle value) { return eager_tensor_ptr(value) != nullptr; }
// Called once by bind_tensor after the EagerTensor class exists.
void set_eager_tensor_type(py::handle type);

// Zero-copy, read-only NumPy view of a tensor (a NumPy scalar for rank 0, like TF's _numpy()).
py::object to_numpy(const Tensor& t);

// str(value) as UTF-8, for messages: never fails (text that is not valid Unicode shows escaped).
std::string py_display(py::handle value);

// The graphfn dtype for a DataType number from Python (0: none, kInvalid); ValueError for a
// number graphfn has no dtype for, so no out-of-range DType reaches a table.
DType dtype_from_number(int64_t number);

// DType <-> NumPy dtype.
py::dtype numpy_dtype(DType dt);
DType dtype_from_numpy(const py::dtype& dt);

}  // namespace graphfn
