// Nested Python lists and tuples of plain Python numbers or strings, converted to a tensor
// without NumPy (shape arguments like [2, 3] are the common case, and NumPy is only imported
// when needed; strings keep every byte, trailing NULs included).
#pragma once
#include <pybind11/pybind11.h>

#include "graphfn/core/tensor.h"

namespace graphfn {
namespace py = pybind11;

// Converts `sequence` when it is rectangular and holds only Python bools, ints and floats, with
// TF's dtypes for Python lists (float32 for floats, int32 or int64 for ints; `want` may ask for
// another number type), or only bytes and str (a string tensor); strings mixed with numbers
// raise TF's ValueError. Returns false, leaving `out` alone, for anything else (NumPy scalars,
// tensors, ragged nesting, casts that could lose values): the NumPy path converts those and
// raises their errors.
bool python_sequence_to_tensor(py::handle sequence, DType want, Tensor* out);

}  // namespace graphfn
