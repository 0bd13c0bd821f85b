// The sparse ops behind tf.sparse (python/graphfn/ops/sparse_ops.py): a SparseTensor travels as
// three tensors, indices [N, rank] int64, values [N] and dense_shape [rank] int64. Most outputs
// have data-dependent sizes, so the shape functions give what the static shapes tell (the
// number of entries is usually unknown) and leave validation to the kernels
// (kernels/sparse_kernels.cc, kernels/sparse_math_kernels.cc), which run with TF's messages.
// SparseConcat is not here: its three list inputs are more than the registry's one list input per
// op, so tf.sparse.concat is built in Python from ConcatV2 and SparseReorder.
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

// Dim `d` of input i's static shape, or unknown.
int64_t static_dim(InferenceContext& c, int i, int d) {
  const Shape& s = c.input_shape(i);
  return s.known_rank() && s.rank() > d ? s.dim(d) : Shape::kUnknownDim;
}

// The rank of the sparse operand whose dense shape is input `shape_input` and indices
// `indices_input`: the shape vector's length, else the indices' second dim.
int64_t sparse_rank(InferenceContext& c, int indices_input, int shape_input) {
  const int64_t from_shape = static_dim(c, shape_input, 0);
  return from_shape != Shape::kUnknownDim ? from_shape : static_dim(c, indices_input, 1);
}

// A vector input's value when it is known now (eager, or a constant while tracing).
bool known_vector(InferenceContext& c, int i, std::vector<int64_t>* out) {
  const Tensor* t = c.input_value(i);
  return t != nullptr && t->rank() == 1 && int_values(*t, out).ok();
}

// Outputs (indices [?, rank], values [?] of T, dense_shape [rank]) of an op that makes a new
// SparseTensor.
void set_sparse_outputs(InferenceContext& c, int64_t rank, DType values_dtype) {
  c.set_output(0, DType::kInt64, Shape{Shape::kUnknownDim, rank});
  c.set_output(1, values_dtype, Shape{Shape::kUnknownDim});
  c.set_output(2, DType::kInt64, Shape{rank});
}

Status sparse_to_dense_shape(InferenceContext& c) {
  std::vector<int64_t> dims;
  if (!c.is_eager() && known_vector(c, 1, &dims)) {
    for (int64_t d : dims) {
      if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
    }
    c.set_output(0, c.type_attr("T"), Shape(dims));
    return Status::OK();
  }
  const int64_t rank = static_dim(c, 1, 0);
  c.set_output(0, c.type_attr("T"), rank == Shape::kUnknownDim ? Shape::unknown_rank() : unknown_dims(rank));
  return Status::OK();
}

Status sparse_reorder_shape(InferenceContext& c) {
  c.set_output(0, DType::kInt64, c.input_shape(0));
  c.set_output(1, c.type_attr("T"), c.input_shape(1));
  return Status::OK();
}

Status sparse_reshape_shape(InferenceContext& c) {
  const int64_t rank = static_dim(c, 2, 0);
  c.set_output(0, DType::kInt64, Shape{static_dim(c, 0, 0), rank});
  c.set_output(1, DType::kInt64, Shape{rank});
  return Status::OK();
}

Status sparse_slice_shape(InferenceContext& c) {
  set_sparse_outputs(c, sparse_rank(c, 0, 2), c.type_attr("T"));
  return Status::OK();
}

Status sparse_slice_grad_shape(InferenceContext& c) {
  c.set_output(0, c.type_attr("T"), Shape{static_dim(c, 1, 0)});
  return Status::OK();
}

Status sparse_add_shape(InferenceContext& c) {
  set_sparse_outputs(c, sparse_rank(c, 0, 2), c.type_attr("T"));
  return Status::OK();
}

Status sparse_sparse_extremum_shape(InferenceContext& c) {
  c.set_output(0, DType::kInt64, Shape{Shape::kUnknownDim, sparse_rank(c, 0, 2)});
  c.set_output(1, c.type_attr("T"), Shape{Shape::kUnknownDim});
  return Status::OK();
}

Status sparse_add_grad_shape(InferenceContext& c) {
  const DType t = c.type_attr("T");
  c.set_output(0, t, Shape{static_dim(c, 1, 0)});
  c.set_output(1, t, Shape{static_dim(c, 2, 0)});
  return Status::OK();
}

Status sparse_dense_add_shape(InferenceContext& c) {
  c.set_output(0, c.type_attr("T"), c.input_shape(3));
  return Status::OK();
}

Status sparse_dense_matmul_shape(InferenceContext& c) {
  const bool adj_a = c.attrs().get_bool("adjoint_a", false);
  const bool adj_b = c.attrs().get_bool("adjoint_b", false);
  int64_t rows = Shape::kUnknownDim;
  std::vector<int64_t> a_dims;
  if (!c.is_eager() && known_vector(c, 2, &a_dims) && a_dims.size() == 2) rows = a_dims[adj_a ? 1 : 0];
  c.set_output(0, c.type_attr("T"), Shape{rows, static_dim(c, 3, adj_b ? 0 : 1)});
  return Status::OK();
}

// Dense result of SparseReduceSum/Max: known when the shape and axes are.
Status sparse_reduce_shape(InferenceContext& c) {
  const DType t = c.type_attr("T");
  const bool keep = c.attrs().get_bool("keep_dims", false);
  std::vector<int64_t> dims, axes;
  const Tensor* axes_t = c.input_value(3);
  if (!c.is_eager() && known_vector(c, 2, &dims) && axes_t != nullptr && axes_t->rank() <= 1 &&
      int_values(*axes_t, &axes).ok()) {
    const int rank = static_cast<int>(dims.size());
    std::vector<bool> reduced(dims.size(), false);
    for (int64_t a : axes) {
      if (a < -rank || a >= rank) {
        return errors::InvalidArgument("Invalid reduction dimension ", a, ", for input with ", rank, " dimensions.");
      }
      reduced[a < 0 ? a + rank : a] = true;
    }
    Shape out;
    for (int d = 0; d < rank; ++d) {
      if (!reduced[d]) {
        out.add_dim(dims[d]);
      } else if (keep) {
        out.add_dim(1);
      }
    }
    c.set_output(0, t, out);
    return Status::OK();
  }
  const int64_t rank = sparse_rank(c, 0, 2);
  c.set_output(0, t, keep && rank != Shape::kUnknownDim ? unknown_dims(rank) : Shape::unknown_rank());
  return Status::OK();
}

Status sparse_reduce_sparse_shape(InferenceContext& c) {
  set_sparse_outputs(c, Shape::kUnknownDim, c.type_attr("T"));
  return Status::OK();
}

Status sparse_fill_empty_rows_shape(InferenceContext& c) {
  c.set_output(0, DType::kInt64, Shape{Shape::kUnknownDim, sparse_rank(c, 0, 2)});
  c.set_output(1, c.type_attr("T"), Shape{Shape::kUnknownDim});
  c.set_output(2, DType::kBool, Shape{Shape::kUnknownDim});
  c.set_output(3, DType::kInt64, Shape{static_dim(c, 0, 0)});
  return Status::OK();
}

Status sparse_fill_empty_rows_grad_shape(InferenceContext& c) {
  const DType t = c.type_attr("T");
  c.set_output(0, t, Shape{static_dim(c, 0, 0)});
  c.set_output(1, t, Shape{});
  return Status::OK();
}

}  // namespace

void register_sparse_ops(OpRegistry& reg) {
  reg.op("SparseToDense").input("sparse_indices: Tindices").input("output_shape: Tindices")
      .input("sparse_values: T").input("default_value: T").output("dense: T")
      .attr("validate_indices: bool = true").attr("T: type").attr("Tindices: {int32, int64}")
      .kernel_type_attr("T").shape_fn(sparse_to_dense_shape, true);
  reg.op("SparseReorder").input("input_indices: int64").input("input_values: T").input("input_shape: int64")
      .output("output_indices: int64").output("output_values: T").attr("T: type")
      .shape_fn(sparse_reorder_shape, true);
  reg.op("SparseReshape").input("input_indices: int64").input("input_shape: int64").input("new_shape: int64")
      .output("output_indices: int64").output("output_shape: int64").shape_fn(sparse_reshape_shape, true);
  reg.op("SparseSlice").input("indices: int64").input("values: T").input("shape: int64").input("start: int64")
      .input("size: int64").output("output_indices: int64").output("output_values: T").output("output_shape: int64")
      .attr("T: type").shape_fn(sparse_slice_shape, true);
  reg.op("SparseSliceGrad").input("backprop_val_grad: T").input("input_indices: int64").input("input_start: int64")
      .input("output_indices: int64").output("val_grad: T").attr("T: {numbertype}")
      .shape_fn(sparse_slice_grad_shape, true);
  reg.op("SparseAdd").input("a_indices: int64").input("a_values: T").input("a_shape: int64")
      .input("b_indices: int64").input("b_values: T").input("b_shape: int64").input("thresh: Treal")
      .output("sum_indices: int64").output("sum_values: T").output("sum_shape: int64")
      .attr("T: {numbertype}").attr("Treal: {realnumbertype}").kernel_type_attr("T").shape_fn(sparse_add_shape, true);
  for (const char* name : {"SparseSparseMaximum", "SparseSparseMinimum"}) {
    const bool is_max = std::string(name) == "SparseSparseMaximum";
    reg.op(name).input("a_indices: int64").input("a_values: T").input("a_shape: int64").input("b_indices: int64")
        .input("b_values: T").input("b_shape: int64").output("output_indices: int64").output("output_values: T")
        .attr(is_max ? "T: {realnumbertype}" : "T: {numbertype}").shape_fn(sparse_sparse_extremum_shape, true);
  }
  reg.op("SparseAddGrad").input("backprop_val_grad: T").input("a_indices: int64").input("b_indices: int64")
      .input("sum_indices: int64").output("a_val_grad: T").output("b_val_grad: T").attr("T: {numbertype}")
      .shape_fn(sparse_add_grad_shape, true);
  reg.op("SparseTensorDenseAdd").input("a_indices: Tindices").input("a_values: T").input("a_shape: Tindices")
      .input("b: T").output("output: T").attr("T: {numbertype}").attr("Tindices: {int32, int64}")
      .kernel_type_attr("T").shape_fn(sparse_dense_add_shape, true);
  reg.op("SparseTensorDenseMatMul").input("a_indices: Tindices").input("a_values: T").input("a_shape: int64")
      .input("b: T").output("product: T").attr("T: type").attr("Tindices: {int32, int64} = DT_INT64")
      .attr("adjoint_a: bool = false").attr("adjoint_b: bool = false").kernel_type_attr("T")
      .shape_fn(sparse_dense_matmul_shape, true);
  for (const char* name : {"SparseReduceSum", "SparseReduceMax"}) {
    const bool is_max = name[12] == 'M';
    reg.op(name).input("input_indices: int64").input("input_values: T").input("input_shape: int64")
        .input("reduction_axes: int32").output("output: T").attr("keep_dims: bool = false")
        .attr(is_max ? "T: {realnumbertype}" : "T: {numbertype}")
        .shape_fn(sparse_reduce_shape, true);
    reg.op(std::string(name) + "Sparse").input("input_indices: int64").input("input_values: T")
        .input("input_shape: int64").input("reduction_axes: int32").output("output_indices: int64")
        .output("output_values: T").output("output_shape: int64").attr("keep_dims: bool = false")
        .attr(is_max ? "T: {realnumbertype}" : "T: {numbertype}").shape_fn(sparse_reduce_sparse_shape, true);
  }
  reg.op("SparseFillEmptyRows").input("indices: int64").input("values: T").input("dense_shape: int64")
      .input("default_value: T").output("output_indices: int64").output("output_values: T")
      .output("empty_row_indicator: bool").output("reverse_index_map: int64").attr("T: type")
      .shape_fn(sparse_fill_empty_rows_shape, true);
  reg.op("SparseFillEmptyRowsGrad").input("reverse_index_map: int64").input("grad_values: T")
      .output("d_values: T").output("d_default_value: T").attr("T: type")
      .shape_fn(sparse_fill_empty_rows_grad_shape, true);
}

}  // namespace graphfn
