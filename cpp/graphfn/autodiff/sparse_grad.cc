// Gradients of the sparse ops (ops/sparse_ops.cc), as TF defines them (sparse_grad.py): the
// values get gradients, indices and shapes none.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using Grads = std::vector<GradValue>;

GradValue sum_all(GradBuilder& b, const GradValue& v) {
  const GradValue axes = b.op("Range", {b.scalar(DType::kInt32, 0), b.op("Rank", {v}), b.scalar(DType::kInt32, 1)});
  return b.op("Sum", {v, axes});
}

// Column `col` of an [N, 2] index matrix.
GradValue index_column(GradBuilder& b, const GradValue& indices, int col) {
  return b.op("GatherV2", {indices, b.scalar(DType::kInt32, col), b.scalar(DType::kInt32, 1)});
}

// dense = SparseToDense(indices, shape, values, default): the values get the gradient at their
// positions, the default value the rest of it.
Status sparse_to_dense_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!dy(in)) return Status::OK();
  const GradValue values_grad = b.op("GatherNd", {dy(in), in.inputs[0]});
  (*g)[2] = values_grad;
  (*g)[3] = b.op("Sub", {sum_all(b, dy(in)), sum_all(b, values_grad)});
  return b.status();
}

// product = A·B with A sparse: dB = A^T·dY (a sparse product again), dA_values = the entries of
// dY·B^T at A's positions, sum(dY[row] * B[col]).
Status sparse_dense_matmul_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!dy(in)) return Status::OK();
  const bool adj_a = in.attr_bool("adjoint_a");
  const bool adj_b = in.attr_bool("adjoint_b");
  const GradValue &indices = in.inputs[0], &values = in.inputs[1], &shape = in.inputs[2], &dense = in.inputs[3];
  const DType index_type = b.dtype(indices);
  GradValue b_grad = b.op("SparseTensorDenseMatMul", {indices, values, shape, dy(in)},
                          grad::attrs({{"adjoint_a", !adj_a}, {"adjoint_b", false}, {"Tindices", index_type}}));
  const GradValue perm = b.int_vector({1, 0});
  if (adj_b) b_grad = b.op("Transpose", {b_grad, perm});
  const GradValue rows = index_column(b, indices, 0);
  const GradValue cols = index_column(b, indices, 1);
  const GradValue zero = b.scalar(DType::kInt32, 0);
  const GradValue parts_a = b.op("GatherV2", {dy(in), adj_a ? cols : rows, zero});
  const GradValue b_rows = adj_b ? b.op("Transpose", {dense, perm}) : dense;
  const GradValue parts_b = b.op("GatherV2", {b_rows, adj_a ? rows : cols, zero});
  (*g)[1] = b.op("Sum", {b.op("Mul", {parts_a, parts_b}), b.scalar(DType::kInt32, 1)});
  (*g)[3] = b_grad;
  return b.status();
}

// Reordering permutes the values: their gradient is the output's, permuted back.
Status sparse_reorder_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!in.output_grads[1]) return Status::OK();
  const GradValue& indices = in.inputs[0];
  const GradValue count = b.op("GatherV2", {b.op("Shape", {indices}, grad::attrs({{"out_type", DType::kInt64}})),
                                            b.scalar(DType::kInt32, 0), b.scalar(DType::kInt32, 0)});
  const GradValue entries = b.op("Range", {b.scalar(DType::kInt64, 0), count, b.scalar(DType::kInt64, 1)});
  const std::vector<GradValue> reordered = b.op_n("SparseReorder", {indices, entries, in.inputs[2]});
  if (reordered.size() < 2) return b.status();
  const GradValue inverse = b.op("InvertPermutation", {reordered[1]});
  (*g)[1] = b.op("GatherV2", {in.output_grads[1], inverse, b.scalar(DType::kInt32, 0)});
  return b.status();
}

// The slice's values came from input entries in order: their gradients go back there.
Status sparse_slice_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!in.output_grads[1]) return Status::OK();
  (*g)[1] = b.op("SparseSliceGrad", {in.output_grads[1], in.inputs[0], in.inputs[3], in.outputs[0]});
  return b.status();
}

// Each entry gets the gradient of the output element it was summed into: the output gradient,
// reshaped with the reduced dims kept as 1, read at index // (dense_shape // kept_shape).
Status sparse_reduce_sum_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!dy(in)) return Status::OK();
  const GradValue &indices = in.inputs[0], &shape = in.inputs[2];
  const GradValue rank = b.op("Size", {shape});
  const GradValue axes = b.op("FloorMod", {b.op("Reshape", {in.inputs[3], b.int_vector({-1})}), rank});
  const GradValue dims = b.op("Range", {b.scalar(DType::kInt32, 0), rank, b.scalar(DType::kInt32, 1)});
  const GradValue matches = b.op("Equal", {b.op("ExpandDims", {dims, b.scalar(DType::kInt32, 1)}),
                                           b.op("ExpandDims", {axes, b.scalar(DType::kInt32, 0)})});
  const GradValue reduced = b.op("Any", {matches, b.scalar(DType::kInt32, 1)});
  const GradValue kept = b.op("SelectV2", {reduced, b.ones_like(shape), shape});
  const GradValue grad = b.op("Reshape", {dy(in), kept});
  const GradValue scale = b.op("FloorDiv", {shape, kept});
  (*g)[1] = b.op("GatherNd", {grad, b.op("FloorDiv", {indices, scale})});
  return b.status();
}

// TF registers these gradients only to refuse them.
Status sparse_maximum_grad(GradBuilder&, const GradInputs&, Grads*) {
  return errors::Unimplemented("Gradient for SparseSparseMaximum is currently not implemented yet.");
}
Status sparse_minimum_grad(GradBuilder&, const GradInputs&, Grads*) {
  return errors::Unimplemented("Gradient for SparseSparseMinimum is currently not implemented yet.");
}

Status sparse_add_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!in.output_grads[1]) return Status::OK();
  const std::vector<GradValue> grads =
      b.op_n("SparseAddGrad", {in.output_grads[1], in.inputs[0], in.inputs[3], in.outputs[0]});
  if (grads.size() < 2) return b.status();
  (*g)[1] = grads[0];
  (*g)[4] = grads[1];
  return b.status();
}

Status sparse_dense_add_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!dy(in)) return Status::OK();
  (*g)[1] = b.op("GatherNd", {dy(in), in.inputs[0]});
  (*g)[3] = dy(in);
  return b.status();
}

Status sparse_fill_empty_rows_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!in.output_grads[1]) return Status::OK();
  const std::vector<GradValue> grads = b.op_n("SparseFillEmptyRowsGrad", {in.outputs[3], in.output_grads[1]});
  if (grads.size() < 2) return b.status();
  (*g)[1] = grads[0];
  (*g)[3] = grads[1];
  return b.status();
}

}  // namespace

void register_sparse_gradients(OpRegistry& reg) {
  reg.set_gradient("SparseToDense", sparse_to_dense_grad);
  reg.set_gradient("SparseTensorDenseMatMul", sparse_dense_matmul_grad);
  reg.set_gradient("SparseReorder", sparse_reorder_grad);
  reg.set_gradient("SparseAdd", sparse_add_grad);
  reg.set_gradient("SparseSlice", sparse_slice_grad);
  reg.set_gradient("SparseSparseMaximum", sparse_maximum_grad);
  reg.set_gradient("SparseSparseMinimum", sparse_minimum_grad);
  reg.set_gradient("SparseReduceSum", sparse_reduce_sum_grad);
  reg.set_gradient("SparseTensorDenseAdd", sparse_dense_add_grad);
  reg.set_gradient("SparseFillEmptyRows", sparse_fill_empty_rows_grad);
  // TF declares SparseAddGrad not differentiable; SparseReshape, SparseSliceGrad, SparseReduceMax
  // and the sparse-output reductions have no gradient entry (TF's LookupError).
  reg.set_not_differentiable("SparseAddGrad");
}

}  // namespace graphfn
