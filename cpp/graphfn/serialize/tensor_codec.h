// Encoding of dtypes, shapes and tensors for the saved-graph format (docs/saving.md).
// Readers validate everything: dtype codes, ranks and dimensions, element counts against the
// bytes that follow (before allocating), bool bytes, and resource indices.
#pragma once
#include <functional>

#include "graphfn/core/resource.h"
#include "graphfn/core/tensor.h"
#include "graphfn/serialize/byte_io.h"

namespace graphfn {

constexpr int kMaxSavedRank = 254;  // TF's TensorShape limit
// A known dimension, and the product of a shape's known dimensions, stay below this, so shape
// arithmetic on loaded shapes cannot overflow.
constexpr int64_t kMaxSavedDim = int64_t(1) << 40;
constexpr int64_t kMaxSavedShapeProduct = int64_t(1) << 62;

// Resource tensors (captured variables) are written as indices into the saved variables.
using ResourceToIndex = std::function<Status(const ResourceHandle&, uint64_t*)>;
using IndexToResource = std::function<Status(uint64_t, ResourceHandle*)>;

void write_dtype(ByteWriter& w, DType dt);
Status read_dtype(ByteReader& r, DType* dt);  // any dtype a tensor can have, incl. resource
void write_shape(ByteWriter& w, const Shape& shape);
Status read_shape(ByteReader& r, Shape* shape);

// `resources` is needed only for resource tensors (an error without it).
Status write_tensor(ByteWriter& w, const Tensor& t, const ResourceToIndex* resources = nullptr);
Status read_tensor(ByteReader& r, Tensor* t, const IndexToResource* resources = nullptr);

}  // namespace graphfn
