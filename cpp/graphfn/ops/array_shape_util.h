// Helpers for the shape functions of array ops: reading small integer inputs (shapes, axes,
// indices) and guarding output sizes that come from user data.
#pragma once
#include <cstdint>
#include <vector>

#include "graphfn/ir/shape_inference.h"

namespace graphfn {

// Reads any integer tensor's values as int64 (int8 ... int64, uint8).
Status int_values(const Tensor& t, std::vector<int64_t>* out);
// The single value of an integer tensor with exactly one element.
int64_t first_int(const Tensor& t);

// TF's "legacy" scalar and vector: a one-element vector counts as a scalar, a scalar as a
// one-element vector. While graph building, a vector of unknown length may be a scalar.
inline bool is_legacy_scalar(const Shape& s) {
  return s.rank() == 0 || (s.rank() == 1 && (s.dim(0) == 1 || s.dim(0) == Shape::kUnknownDim));
}
inline bool is_legacy_vector(const Shape& s) { return s.rank() <= 1; }

// Validates an output shape built from user-supplied dims (all >= 0): fails like TF when the
// element count overflows int64 ("Shape [a,b] would have more than 2**63 - 1 elements") or is
// too large to allocate (TF's ResourceExhausted OOM text). A partial shape (graph building)
// passes: its size is checked when the op runs.
Status check_output_size(const Shape& shape, DType dt);

// Graph building, where shapes may be partial and value inputs unknown (null):
// `rank` unknown dims, or an unknown rank when rank < 0.
Shape unknown_dims(int64_t rank);
// The length of a vector input from its static shape (the value being unknown), else -1.
int64_t static_length(const Shape& vector_shape);
// Combines two partial descriptions of one shape: known dims win; false if they conflict.
bool merge_shapes(const Shape& a, const Shape& b, Shape* out);

// Product of dims[begin, end) (dims of an existing tensor, so no overflow).
int64_t dims_product(const Shape& s, int begin, int end);

}  // namespace graphfn
