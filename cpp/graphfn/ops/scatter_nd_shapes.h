// Shape checks shared by the scatter ops' shape functions (ops/scatter_nd_ops.cc) and the
// variable scatters' kernels, which learn the variable's shape only when they run.
#pragma once
#include "graphfn/core/shape.h"
#include "graphfn/core/status.h"

namespace graphfn {

// ScatterNd and ResourceScatterNd*: updates must be indices.shape[:-1] + out.shape[depth:]
// (TF's "Dimensions [0,1) of indices[shape=...] must match ..." texts).
Status check_scatter_nd_update_shape(const Shape& indices, const Shape& updates, const Shape& out);
// TensorScatter*: the same rule with TF's texts for those ops ("Outer dimensions of indices and
// update must match...").
Status check_tensor_scatter_shapes(const Shape& out, const Shape& indices, const Shape& updates);

}  // namespace graphfn
