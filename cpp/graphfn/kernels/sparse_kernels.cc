// Kernels of the sparse ops that move entries around (ops/sparse_ops.cc): SparseToDense,
// SparseReorder, SparseReshape, SparseSlice(+Grad), SparseFillEmptyRows(+Grad). Each
// validates its three component tensors with the messages of TF's kernel for that op.
#include <algorithm>
#include <string>
#include <vector>

#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/sparse_util.h"

namespace graphfn {
namespace {

using sparse::bracketed;
using sparse::check_sparse_triple;
using sparse::index_values;
using sparse::row;

// --- SparseToDense -------------------------------------------------------------------------

Status sparse_to_dense_checks(const Tensor& indices, const Tensor& shape, const Tensor& values, const Tensor& dflt,
                              int64_t* num_entries, int* num_dims) {
  if (indices.rank() > 2) {
    return errors::InvalidArgument("sparse_indices should be a scalar, vector, or matrix, got shape ",
                                   indices.shape().to_string());
  }
  if (shape.rank() != 1) return errors::InvalidArgument("output_shape must be rank 1, got shape ", shape.shape().to_string());
  *num_entries = indices.rank() > 0 ? indices.dim(0) : 1;
  *num_dims = indices.rank() > 1 ? static_cast<int>(indices.dim(1)) : 1;
  if (!(values.rank() == 0 || (values.rank() == 1 && values.dim(0) == *num_entries))) {
    return errors::InvalidArgument("sparse_values has incorrect shape ", values.shape().to_string(),
                                   ", should be [] or [", *num_entries, "]");
  }
  if (dflt.rank() != 0) return errors::InvalidArgument("default_value should be a scalar.");
  if (shape.dim(0) != *num_dims) {
    return errors::InvalidArgument("output_shape has incorrect number of elements: ", shape.dim(0),
                                   " should be: ", *num_dims);
  }
  return Status::OK();
}

// TF's order of checks per entry: in bounds, then strictly after the previous entry.
Status validate_dense_indices(const std::vector<int64_t>& ix, int64_t n, int rank, const std::vector<int64_t>& dims) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t* r = row(ix, i, rank);
    for (int d = 0; d < rank; ++d) {
      if (r[d] < 0 || r[d] >= dims[d]) {
        return errors::InvalidArgument("indices[", i, "] = ", bracketed(r, rank), " is out of bounds: need 0 <= index < ",
                                       bracketed(dims));
      }
    }
    if (i == 0) continue;
    const int cmp = sparse::compare_rows(row(ix, i - 1, rank), r, rank);
    if (cmp > 0) {
      return errors::InvalidArgument("indices[", i, "] = ", bracketed(r, rank),
                                     " is out of order. Many sparse ops require sorted indices.\n"
                                     "    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n");
    }
    if (cmp == 0) return errors::InvalidArgument("indices[", i, "] = ", bracketed(r, rank), " is repeated");
  }
  return Status::OK();
}

template <typename T>
struct SparseToDenseKernel {
  static Status compute(KernelContext& c) {
    const Tensor& indices = c.input(0);
    const Tensor& values = c.input(2);
    int64_t n = 0;
    int rank = 0;
    GRAPHFN_RETURN_IF_ERROR(sparse_to_dense_checks(indices, c.input(1), values, c.input(3), &n, &rank));
    const std::vector<int64_t> dims = index_values(c.input(1));
    for (int64_t d : dims) {
      if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
    }
    const Shape out_shape(dims);
    GRAPHFN_RETURN_IF_ERROR(check_output_size(out_shape, values.dtype()));
    const std::vector<int64_t> ix = index_values(indices);
    if (c.attrs.get_bool("validate_indices", true)) {
      GRAPHFN_RETURN_IF_ERROR(validate_dense_indices(ix, n, rank, dims));
    } else {
      for (int64_t i = 0; i < n * rank; ++i) {
        if (ix[i] < 0 || ix[i] >= dims[i % rank]) {
          return errors::InvalidArgument("Indices are not valid (out of bounds).  Shape: ", out_shape.to_string());
        }
      }
    }
    Tensor* out = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, out_shape, &out));
    T* o = out->data<T>();
    std::fill(o, o + out->num_elements(), c.input(3).data<T>()[0]);
    const T* v = values.data<T>();
    const bool scalar_value = values.rank() == 0;
    for (int64_t i = 0; i < n; ++i) {
      int64_t flat = 0;
      for (int d = 0; d < rank; ++d) flat = flat * dims[d] + ix[i * rank + d];
      o[flat] = v[scalar_value ? 0 : i];
    }
    return Status::OK();
  }
};

template <typename T>
struct SparseReorderKernel {
  static Status compute(KernelContext& c) {
    const Tensor& indices = c.input(0);
    const Tensor& values = c.input(1);
    GRAPHFN_RETURN_IF_ERROR(check_sparse_triple(indices, values, c.input(2)));
    const int rank = static_cast<int>(indices.dim(1));
    const std::vector<int64_t> ix = index_values(indices);
    const std::vector<int64_t> perm = sparse::sorting_permutation(ix, indices.dim(0), rank, sparse::identity_order(rank));
    GRAPHFN_RETURN_IF_ERROR(sparse::output_index_rows(c, 0, ix, rank, perm));
    return sparse::output_gathered<T>(c, 1, values, perm);
  }
};

// --- SparseReshape ---------------------------------------------------------------------------

Status sparse_reshape_kernel(KernelContext& c) {
  const Tensor& indices = c.input(0);
  const Tensor& in_shape_t = c.input(1);
  const Tensor& target_t = c.input(2);
  if (indices.rank() != 2) return errors::InvalidArgument("Input must be a matrix.");
  if (in_shape_t.rank() != 1) return errors::InvalidArgument("Input shape must be a vector.");
  if (target_t.rank() != 1) {
    return errors::InvalidArgument("Target shape should be a vector but received shape ", target_t.shape().to_string());
  }
  const int in_rank = static_cast<int>(in_shape_t.dim(0));
  if (indices.dim(1) != in_rank) return errors::InvalidArgument("Input tensor rank must match input shape length.");
  const std::vector<int64_t> in_dims = index_values(in_shape_t);
  int64_t dense_size = 0;
  GRAPHFN_RETURN_IF_ERROR(sparse::dense_shape_product(in_dims, &dense_size));
  std::vector<int64_t> out_dims = index_values(target_t);
  const int out_rank = static_cast<int>(out_dims.size());
  int unknown = -1;
  int64_t product = 1;
  for (int d = 0; d < out_rank; ++d) {
    const int64_t size = out_dims[d];
    if (size == -1) {
      if (unknown != -1) {
        return errors::InvalidArgument("only one output dimension may be -1, not both ", unknown, " and ", d);
      }
      unknown = d;
      continue;
    }
    if (size < 0) return errors::InvalidArgument("size ", d, " must be non-negative, not ", size);
    GRAPHFN_RETURN_IF_ERROR(sparse::dense_shape_product({product, size}, &product));
  }
  if (unknown != -1) {
    if (product == 0) {
      return errors::InvalidArgument("reshape cannot infer the missing input size for an empty tensor unless all "
                                     "specified input sizes are non-zero");
    }
    if (dense_size % product != 0) {
      out_dims[unknown] = 1;  // TF's message shows the -1 as 1
      return errors::InvalidArgument("Input to reshape is a SparseTensor with ", dense_size,
                                     " dense values, but the requested shape requires a multiple of ", product,
                                     ". input_shape=", bracketed(in_dims), " output_shape=", bracketed(out_dims));
    }
    out_dims[unknown] = dense_size / product;
  } else if (product != dense_size) {
    return errors::InvalidArgument("Input to reshape is a tensor with ", dense_size,
                                   " dense values, but the requested shape has ", product,
                                   ". input_shape=", bracketed(in_dims), " output_shape=", bracketed(out_dims));
  }
  const int64_t n = indices.dim(0);
  const std::vector<int64_t> ix = index_values(indices);
  Tensor* out = nullptr;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{n, out_rank}, &out));
  int64_t* o = out->data<int64_t>();
  // Row-major linear position in the input shape, spelled out in the output shape. Indices out
  // of bounds are not checked (as TF): the arithmetic wraps instead of trapping.
  std::vector<uint64_t> out_strides(static_cast<size_t>(out_rank), 1);
  for (int d = out_rank - 2; d >= 0; --d) out_strides[d] = out_strides[d + 1] * static_cast<uint64_t>(out_dims[d + 1]);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t linear = 0;
    for (int d = 0; d < in_rank; ++d) linear = linear * static_cast<uint64_t>(in_dims[d]) + static_cast<uint64_t>(ix[i * in_rank + d]);
    for (int d = 0; d < out_rank; ++d) {
      const uint64_t stride = out_strides[d];
      o[i * out_rank + d] = stride == 0 ? 0 : static_cast<int64_t>(linear / stride);
      if (stride != 0) linear %= stride;
    }
  }
  return sparse::output_vector(c, 1, out_dims);
}

// --- SparseSlice -----------------------------------------------------------------------------

// TF sets the output shape's dims one at a time into a copy of the input's shape, counting its
// elements after each: a slice whose shape cannot be counted in int64 (a start near -2^63) fails
// with TF's message even where the final shape could be ([-2^63, 0] + [2^63 - 1, 1] of [3, 4]).
Status check_sparse_slice_shape(std::vector<int64_t> shape, const std::vector<int64_t>& out_dims) {
  for (size_t d = 0; d < out_dims.size(); ++d) {
    shape[d] = out_dims[d];
    int64_t n = 1;
    for (int64_t dim : shape) {
      int64_t product = 0;
      if (__builtin_mul_overflow(n, dim, &product)) {
        return errors::InvalidArgument("Encountered overflow when multiplying ", n, " with ", dim, ", result: -1");
      }
      n = product;
    }
  }
  return Status::OK();
}

template <typename T>
struct SparseSliceKernel {
  static Status compute(KernelContext& c) {
    const Tensor& indices = c.input(0);
    const Tensor& values = c.input(1);
    GRAPHFN_RETURN_IF_ERROR(check_sparse_triple(indices, values, c.input(2)));
    const int rank = static_cast<int>(indices.dim(1));
    const std::vector<int64_t> dims = index_values(c.input(2));
    GRAPHFN_RETURN_IF_ERROR(sparse::check_non_negative_shape(dims));
    const std::vector<int64_t> start = index_values(c.input(3));
    const std::vector<int64_t> size = index_values(c.input(4));
    if (c.input(3).rank() != 1 || static_cast<int>(start.size()) != rank) {
      return errors::InvalidArgument("Expected start to be a vector of length ", rank, " but got length ", start.size());
    }
    if (c.input(4).rank() != 1 || static_cast<int>(size.size()) != rank) {
      return errors::InvalidArgument("Expected size to be a vector of length ", rank, " but got length ", size.size());
    }
    std::vector<int64_t> out_dims(static_cast<size_t>(rank));
    std::vector<int64_t> end(static_cast<size_t>(rank));
    for (int d = 0; d < rank; ++d) {
      if (size[d] < 0) return errors::InvalidArgument("Expected a non-negative size, got ", size[d]);
      // Saturating: a huge start + size reaches past any index rather than wrapping.
      if (__builtin_add_overflow(start[d], size[d], &end[d])) end[d] = INT64_MAX;
      const __int128 extent = static_cast<__int128>(std::min(end[d], dims[d])) - start[d];
      out_dims[d] = extent <= 0 ? 0 : static_cast<int64_t>(std::min<__int128>(extent, INT64_MAX));
    }
    GRAPHFN_RETURN_IF_ERROR(check_sparse_slice_shape(dims, out_dims));
    const std::vector<int64_t> ix = index_values(indices);
    std::vector<int64_t> kept;
    for (int64_t i = 0; i < indices.dim(0); ++i) {
      const int64_t* r = row(ix, i, rank);
      bool hit = true;
      for (int d = 0; d < rank && hit; ++d) hit = start[d] <= r[d] && r[d] < end[d];
      if (hit) kept.push_back(i);
    }
    Tensor* out = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{static_cast<int64_t>(kept.size()), rank}, &out));
    int64_t* o = out->data<int64_t>();
    for (int64_t i : kept) {
      for (int d = 0; d < rank; ++d) *o++ = row(ix, i, rank)[d] - start[d];
    }
    GRAPHFN_RETURN_IF_ERROR(sparse::output_gathered<T>(c, 1, values, kept));
    return sparse::output_vector(c, 2, out_dims);
  }
};

// The gradient of SparseSlice's values: each output entry's gradient goes back to the input entry
// it was (the entries keep their order), zero for the entries the slice left out.
template <typename T>
struct SparseSliceGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor &grad = c.input(0), &in_ix = c.input(1), &start_t = c.input(2), &out_ix = c.input(3);
    if (in_ix.rank() != 2 || out_ix.rank() != 2) {
      return errors::InvalidArgument("Input and output indices should be matrices but received shapes: ",
                                     in_ix.shape().to_string(), " and ", out_ix.shape().to_string());
    }
    if (grad.rank() != 1) {
      return errors::InvalidArgument("Input backprop_val_grad should be a vector but received shape: ",
                                     grad.shape().to_string());
    }
    if (in_ix.dim(1) != out_ix.dim(1)) {
      return errors::InvalidArgument("The input and output should have the same ndims: got: ", in_ix.dim(1), " and ",
                                     out_ix.dim(1));
    }
    if (out_ix.dim(0) > in_ix.dim(0)) {
      return errors::InvalidArgument("# rows of output_indices should be not greater than of input_indices, got ",
                                     out_ix.dim(0), " and ", in_ix.dim(0));
    }
    if (grad.dim(0) != out_ix.dim(0)) {
      return errors::InvalidArgument("# elements of backprop_val_grad and # rows of output_indices should match "
                                     "(#nnz of sum): got ", grad.dim(0), " and ", out_ix.dim(0));
    }
    const int rank = static_cast<int>(in_ix.dim(1));
    if (start_t.rank() != 1 || start_t.dim(0) != rank) {
      return errors::InvalidArgument("Expected input_start to be a vector of length ", rank, " but got length ",
                                     start_t.num_elements());
    }
    const std::vector<int64_t> in = index_values(in_ix), out = index_values(out_ix), start = index_values(start_t);
    const int64_t n = in_ix.dim(0), m = out_ix.dim(0);
    Tensor* result = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{n}, &result));
    T* r = result->data<T>();
    std::fill(r, r + n, T(0));
    const T* g = grad.data<T>();
    int64_t j = 0;
    for (int64_t i = 0; i < n && j < m; ++i) {
      bool same = true;
      for (int d = 0; d < rank && same; ++d) {
        same = static_cast<__int128>(in[i * rank + d]) == static_cast<__int128>(out[j * rank + d]) + start[d];
      }
      if (same) r[i] = g[j++];
    }
    if (j != m) {
      return errors::Internal("Elements of backprop_val_grad aren't all propagated. Num elements:", m, ", used: ", j);
    }
    return Status::OK();
  }
};

// --- SparseFillEmptyRows ---------------------------------------------------------------------

template <typename T>
struct SparseFillEmptyRowsKernel {
  static Status compute(KernelContext& c) {
    const Tensor& indices = c.input(0);
    const Tensor& values = c.input(1);
    const Tensor& dense_shape = c.input(2);
    const Tensor& dflt = c.input(3);
    if (dense_shape.rank() != 1) {
      return errors::InvalidArgument("dense_shape must be a vector, saw: ", dense_shape.shape().to_string());
    }
    if (indices.rank() != 2) return errors::InvalidArgument("indices must be a matrix, saw: ", indices.shape().to_string());
    if (values.rank() != 1) return errors::InvalidArgument("values must be a vector, saw: ", values.shape().to_string());
    if (values.dim(0) != indices.dim(0)) {
      return errors::InvalidArgument("The length of `values` (", values.dim(0),
                                     ") must match the first dimension of `indices` (", indices.dim(0), ").");
    }
    if (dense_shape.dim(0) != indices.dim(1)) {
      return errors::InvalidArgument("The length of `dense_shape` (", dense_shape.dim(0),
                                     ") must match the second dimension of `indices` (", indices.dim(1), ").");
    }
    if (dflt.rank() != 0) return errors::InvalidArgument("default_value must be a scalar, saw: ", dflt.shape().to_string());
    if (dense_shape.dim(0) == 0) return errors::InvalidArgument("Dense shape cannot be empty.");
    const std::vector<int64_t> dims = index_values(dense_shape);
    GRAPHFN_RETURN_IF_ERROR(sparse::check_non_negative_shape(dims));
    const int rank = static_cast<int>(dims.size());
    const int64_t rows = dims[0];
    const int64_t n = indices.dim(0);
    const std::vector<int64_t> ix = index_values(indices);
    // TF's first allocation is the [rows] indicator: a huge dense_shape[0] fails there, with
    // TF's out-of-memory error, before any per-row bookkeeping is made.
    Tensor* empty = nullptr;
    GRAPHFN_RETURN_IF_ERROR(check_output_size(Shape{rows}, DType::kBool));
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(2, Shape{rows}, &empty));
    GRAPHFN_RETURN_IF_ERROR(check_output_size(Shape{rows, rank}, DType::kInt64));
    std::vector<int64_t> per_row(static_cast<size_t>(rows), 0);  // entries in each row
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = ix[i * rank];
      if (r < 0 || r >= rows) return errors::InvalidArgument("indices(", i, ", 0) is invalid: ", r, " >= ", rows);
      ++per_row[r];
    }
    // Row starts of the output: an empty row takes one slot, for its default entry.
    std::vector<int64_t> starts(per_row.size() + 1, 0);
    for (size_t r = 0; r < per_row.size(); ++r) starts[r + 1] = starts[r] + std::max<int64_t>(per_row[r], 1);
    const int64_t total = starts.back();
    Tensor *out_ix = nullptr, *out_values = nullptr, *reverse = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{total, rank}, &out_ix));
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{total}, &out_values));
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(3, Shape{n}, &reverse));
    int64_t* oi = out_ix->data<int64_t>();
    T* ov = out_values->data<T>();
    bool* oe = empty->data<bool>();
    int64_t* orev = reverse->data<int64_t>();
    const T fill = dflt.data<T>()[0];
    for (size_t r = 0; r < per_row.size(); ++r) {
      oe[r] = per_row[r] == 0;
      if (per_row[r] == 0) {
        const int64_t at = starts[r];
        std::fill(oi + at * rank, oi + (at + 1) * rank, int64_t{0});
        oi[at * rank] = static_cast<int64_t>(r);
        ov[at] = fill;
      }
    }
    std::vector<int64_t> next(starts.begin(), starts.end() - 1);  // stable within a row
    const T* v = values.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = next[ix[i * rank]]++;
      std::copy_n(row(ix, i, rank), rank, oi + at * rank);
      ov[at] = v[i];
      orev[i] = at;
    }
    return Status::OK();
  }
};

template <typename T>
struct SparseFillEmptyRowsGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor& reverse = c.input(0);
    const Tensor& grads = c.input(1);
    if (reverse.rank() != 1) {
      return errors::InvalidArgument("reverse_index_map must be a vector, saw: ", reverse.shape().to_string());
    }
    if (grads.rank() != 1) return errors::InvalidArgument("grad_values must be a vector, saw: ", grads.shape().to_string());
    const int64_t n = reverse.dim(0);
    const int64_t m = grads.dim(0);
    const int64_t* rev = reverse.data<int64_t>();
    const T* g = grads.data<T>();
    std::vector<bool> visited(static_cast<size_t>(m), false);
    Tensor *d_values = nullptr, *d_default = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{n}, &d_values));
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{}, &d_default));
    T* dv = d_values->data<T>();
    for (int64_t i = 0; i < n; ++i) {
      if (rev[i] < 0 || rev[i] >= m) {
        return errors::InvalidArgument("Elements in reverse index must be in [0, ", m, ") but got ", rev[i]);
      }
      dv[i] = g[rev[i]];
      visited[rev[i]] = true;
    }
    T sum = T(0);
    for (int64_t j = 0; j < m; ++j) {
      if (!visited[j]) sum = functors::wrap_add(sum, g[j]);
    }
    d_default->data<T>()[0] = sum;
    return Status::OK();
  }
};

}  // namespace

void register_sparse_kernels(OpRegistry& reg) {
  register_kernels<SparseToDenseKernel>(reg, "SparseToDense", AllTypes{});
  register_kernels<SparseReorderKernel>(reg, "SparseReorder", AllTypes{});
  reg.set_kernel("SparseReshape", DType::kInvalid, &sparse_reshape_kernel);
  register_kernels<SparseSliceKernel>(reg, "SparseSlice", AllTypes{});
  register_kernels<SparseSliceGradKernel>(reg, "SparseSliceGrad", NumericTypes{});
  register_kernels<SparseFillEmptyRowsKernel>(reg, "SparseFillEmptyRows", AllTypes{});
  register_kernels<SparseFillEmptyRowsGradKernel>(reg, "SparseFillEmptyRowsGrad", NumericTypes{});
}

}  // namespace graphfn
