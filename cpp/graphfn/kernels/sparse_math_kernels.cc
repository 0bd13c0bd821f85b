// Kernels of the sparse ops that compute (ops/sparse_ops.cc): SparseAdd (+Grad),
// SparseSparseMaximum/Minimum, SparseTensorDenseAdd, SparseTensorDenseMatMul and the reductions SparseReduceSum/Max with
// dense or sparse results. Validation uses the messages of TF's kernels.
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
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

// SparseAdd's |v| as TF computes it, in T: for the most negative integer it wraps and stays
// negative, so a sum that overflowed to it is dropped by any threshold >= 0 (as in TF).
template <typename T>
double magnitude(T v) {
  if constexpr (std::is_unsigned_v<T>) {
    return static_cast<double>(v);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<double>(v < 0 ? functors::wrap_neg(v) : v);
  } else {
    return std::fabs(static_cast<double>(v));
  }
}

// --- SparseAdd: a merge of two index lists, assumed sorted (unsorted input still merges) -----

// Two sparse operands' dense shapes must be equal (SparseAdd, SparseSparseMaximum/Minimum), in TF's words.
Status check_same_dense_shape(const std::vector<int64_t>& a_dims, const std::vector<int64_t>& b_dims) {
  if (a_dims.size() != b_dims.size()) {
    auto spaced = [](const std::vector<int64_t>& dims) {
      std::string text;
      for (size_t d = 0; d < dims.size(); ++d) text += (d ? " " : "") + std::to_string(dims[d]);
      return text;
    };
    return errors::InvalidArgument("Operands do not have the same ranks; got shapes: ", spaced(a_dims), " and ",
                                   spaced(b_dims));
  }
  for (size_t d = 0; d < a_dims.size(); ++d) {
    if (a_dims[d] != b_dims[d]) {
      return errors::InvalidArgument("Operands' shapes do not match: got ", a_dims[d], " and ", b_dims[d],
                                     " for dimension ", d);
    }
  }
  return Status::OK();
}

Status sparse_add_checks(KernelContext& c) {
  const Tensor &ai = c.input(0), &av = c.input(1), &as = c.input(2);
  const Tensor &bi = c.input(3), &bv = c.input(4), &bs = c.input(5), &thresh = c.input(6);
  if (ai.rank() != 2 || bi.rank() != 2) {
    return errors::InvalidArgument("Input indices should be matrices but received shapes: ", ai.shape().to_string(),
                                   " and ", bi.shape().to_string());
  }
  if (av.rank() != 1 || bv.rank() != 1) {
    return errors::InvalidArgument("Input values should be vectors but received shapes: ", av.shape().to_string(),
                                   " and ", bv.shape().to_string());
  }
  if (ai.dim(0) != av.dim(0) || bi.dim(0) != bv.dim(0)) {
    return errors::InvalidArgument("Expected ", ai.dim(0), " and ", bi.dim(0), " non-empty input values, got ",
                                   av.dim(0), " and ", bv.dim(0));
  }
  if (as.rank() != 1 || bs.rank() != 1) {
    return errors::InvalidArgument("Input shapes should be a vector but received shapes ", as.shape().to_string(),
                                   " and ", bs.shape().to_string());
  }
  if (ai.dim(1) != bi.dim(1)) {
    return errors::InvalidArgument("Input indices must have the same dimension, got ", ai.dim(1), " and ", bi.dim(1));
  }
  if (ai.dim(1) != as.dim(0)) {
    return errors::InvalidArgument("Second dimension of a_indices and length of a_shape must match, got ", ai.dim(1),
                                   " and ", as.dim(0));
  }
  const std::vector<int64_t> a_dims = index_values(as), b_dims = index_values(bs);
  GRAPHFN_RETURN_IF_ERROR(check_same_dense_shape(a_dims, b_dims));
  if (thresh.rank() != 0) {
    return errors::InvalidArgument("The magnitude threshold must be a scalar: got shape ", thresh.shape().to_string());
  }
  return Status::OK();
}

// Which operand(s) each output entry comes from.
struct MergedEntry {
  int64_t a = -1, b = -1;
};

std::vector<MergedEntry> merge_entries(const std::vector<int64_t>& a, int64_t an, const std::vector<int64_t>& b,
                                       int64_t bn, int rank) {
  std::vector<MergedEntry> out;
  int64_t i = 0, j = 0;
  while (i < an && j < bn) {
    const int cmp = sparse::compare_rows(row(a, i, rank), row(b, j, rank), rank);
    if (cmp < 0) {
      out.push_back({i++, -1});
    } else if (cmp > 0) {
      out.push_back({-1, j++});
    } else {
      out.push_back({i++, j++});
    }
  }
  for (; i < an; ++i) out.push_back({i, -1});
  for (; j < bn; ++j) out.push_back({-1, j});
  return out;
}

template <typename T>
struct SparseAddKernel {
  static Status compute(KernelContext& c) {
    GRAPHFN_RETURN_IF_ERROR(sparse_add_checks(c));
    const int rank = static_cast<int>(c.input(0).dim(1));
    const std::vector<int64_t> a = index_values(c.input(0)), b = index_values(c.input(3));
    const T* av = c.input(1).data<T>();
    const T* bv = c.input(4).data<T>();
    double thresh = 0;
    visit_dtype(c.input(6).dtype(), NumericTypes{}, [&](auto tag) {
      thresh = static_cast<double>(c.input(6).data<decltype(tag)>()[0]);
    });
    std::vector<int64_t> ix;
    std::vector<T> values;
    for (const MergedEntry& e : merge_entries(a, c.input(0).dim(0), b, c.input(3).dim(0), rank)) {
      // Integer sums wrap, as TF's.
      const T v = e.a >= 0 && e.b >= 0 ? functors::wrap_add(av[e.a], bv[e.b]) : e.a >= 0 ? av[e.a] : bv[e.b];
      // Only sums meet the threshold; an entry of one operand alone is kept whatever its size (TF).
      if (e.a >= 0 && e.b >= 0 && !(thresh <= magnitude(v))) continue;
      const int64_t* r = e.a >= 0 ? row(a, e.a, rank) : row(b, e.b, rank);
      ix.insert(ix.end(), r, r + rank);
      values.push_back(v);
    }
    const int64_t n = static_cast<int64_t>(values.size());
    Tensor *oi = nullptr, *ov = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{n, rank}, &oi));
    std::copy(ix.begin(), ix.end(), oi->data<int64_t>());
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{n}, &ov));
    std::copy(values.begin(), values.end(), ov->data<T>());
    return sparse::output_vector(c, 2, index_values(c.input(2)));
  }
};

// The gradient of SparseAdd's values: each sum entry's gradient goes back to the a and b entries
// it came from (matched by index, as the forward merge did).
template <typename T>
struct SparseAddGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor &grad = c.input(0), &ai = c.input(1), &bi = c.input(2), &si = c.input(3);
    if (ai.rank() != 2 || bi.rank() != 2 || si.rank() != 2) {
      return errors::InvalidArgument("Input indices should be matrices but received shapes: ", ai.shape().to_string(),
                                     " and ", bi.shape().to_string(), " and ", si.shape().to_string());
    }
    if (grad.rank() != 1) {
      return errors::InvalidArgument("Input backprop_val_grad should be a vector but received shape: ",
                                     grad.shape().to_string());
    }
    if (ai.dim(1) != bi.dim(1) || ai.dim(1) != si.dim(1)) {
      // TF's text runs the three numbers together ("for A, B, sum got: 121").
      return errors::InvalidArgument("The densified operands should have the same ndims; for A, B, sum got: ",
                                     ai.dim(1), bi.dim(1), si.dim(1));
    }
    if (grad.dim(0) != si.dim(0)) {
      return errors::InvalidArgument("# elements of backprop_val_grad and # rows of sum_indices should match (#nnz of "
                                     "sum): got ", grad.dim(0), " and ", si.dim(0));
    }
    const int rank = static_cast<int>(ai.dim(1));
    const std::vector<int64_t> a = index_values(ai), b = index_values(bi), s = index_values(si);
    Tensor *ga = nullptr, *gb = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{ai.dim(0)}, &ga));
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{bi.dim(0)}, &gb));
    T* pa = ga->data<T>();
    T* pb = gb->data<T>();
    std::fill(pa, pa + ai.dim(0), T(0));
    std::fill(pb, pb + bi.dim(0), T(0));
    const T* g = grad.data<T>();
    int64_t k = 0;  // the next sum entry; an entry dropped by the threshold gets no gradient
    for (const MergedEntry& e : merge_entries(a, ai.dim(0), b, bi.dim(0), rank)) {
      if (k >= si.dim(0)) break;
      const int64_t* r = e.a >= 0 ? row(a, e.a, rank) : row(b, e.b, rank);
      if (sparse::compare_rows(r, row(s, k, rank), rank) != 0) continue;
      if (e.a >= 0) pa[e.a] = g[k];
      if (e.b >= 0) pb[e.b] = g[k];
      ++k;
    }
    return Status::OK();
  }
};

// --- SparseSparseMaximum / SparseSparseMinimum: element-wise over the union of the entries -----

// TF's ValidateSparseTensor (unordered): ranks, counts, and every index inside the dense shape.
Status validate_sparse_operand(const Tensor& indices, const Tensor& values, const Tensor& shape) {
  GRAPHFN_RETURN_IF_ERROR(check_sparse_triple(indices, values, shape));
  const int rank = static_cast<int>(indices.dim(1));
  const std::vector<int64_t> ix = index_values(indices), dims = index_values(shape);
  for (int64_t i = 0; i < indices.dim(0); ++i) {
    for (int d = 0; d < rank; ++d) {
      const int64_t k = ix[i * rank + d];
      if (k < 0 || k >= dims[d]) {
        return errors::InvalidArgument("Sparse index tuple indices[", i, ", :] = ",
                                       bracketed(std::vector<int64_t>(row(ix, i, rank), row(ix, i, rank) + rank), ", "), " is out of bounds");
      }
    }
  }
  return Status::OK();
}

template <typename T, bool kMax>
Status sparse_sparse_extremum(KernelContext& c) {
  GRAPHFN_RETURN_IF_ERROR(validate_sparse_operand(c.input(0), c.input(1), c.input(2)));
  GRAPHFN_RETURN_IF_ERROR(validate_sparse_operand(c.input(3), c.input(4), c.input(5)));
  const std::vector<int64_t> a_dims = index_values(c.input(2)), b_dims = index_values(c.input(5));
  GRAPHFN_RETURN_IF_ERROR(check_same_dense_shape(a_dims, b_dims));
  const int rank = static_cast<int>(a_dims.size());
  const std::vector<int64_t> a = index_values(c.input(0)), b = index_values(c.input(3));
  const T* av = c.input(1).data<T>();
  const T* bv = c.input(4).data<T>();
  // An entry missing from one operand is an implicit zero there.
  const std::vector<MergedEntry> merged = merge_entries(a, c.input(0).dim(0), b, c.input(3).dim(0), rank);
  const int64_t n = static_cast<int64_t>(merged.size());
  Tensor *oi = nullptr, *ov = nullptr;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{n, rank}, &oi));
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{n}, &ov));
  int64_t* pi = oi->data<int64_t>();
  T* pv = ov->data<T>();
  for (int64_t k = 0; k < n; ++k) {
    const MergedEntry& e = merged[k];
    const T x = e.a >= 0 ? av[e.a] : T(0);
    const T y = e.b >= 0 ? bv[e.b] : T(0);
    pv[k] = kMax ? (x < y ? y : x) : (y < x ? y : x);
    pi = std::copy_n(e.a >= 0 ? row(a, e.a, rank) : row(b, e.b, rank), rank, pi);
  }
  return Status::OK();
}

template <typename T> struct SparseSparseMaximumKernel { static Status compute(KernelContext& c) { return sparse_sparse_extremum<T, true>(c); } };
template <typename T> struct SparseSparseMinimumKernel { static Status compute(KernelContext& c) { return sparse_sparse_extremum<T, false>(c); } };

// --- SparseTensorDenseAdd --------------------------------------------------------------------

template <typename T>
struct SparseTensorDenseAddKernel {
  static Status compute(KernelContext& c) {
    const Tensor &ai = c.input(0), &av = c.input(1), &as = c.input(2), &b = c.input(3);
    if (ai.rank() != 2) {
      return errors::InvalidArgument("Input a_indices should be a matrix but received shape: ", ai.shape().to_string());
    }
    if (av.rank() != 1 || as.rank() != 1) {
      return errors::InvalidArgument("Inputs a_values and a_shape should be vectors but received shapes: ",
                                     av.shape().to_string(), " and ", as.shape().to_string());
    }
    if (ai.dim(0) != av.dim(0)) {
      return errors::InvalidArgument("Dimensions ", ai.dim(0), " and ", av.dim(0), " are not compatible");
    }
    if (ai.dim(1) != as.dim(0)) {
      return errors::InvalidArgument("Dimensions ", ai.dim(1), " and ", as.dim(0), " are not compatible");
    }
    const std::vector<int64_t> dims = index_values(as);
    if (static_cast<int>(dims.size()) != b.rank()) {
      return errors::InvalidArgument("Two operands have different ranks; received: ", dims.size(), " and ", b.rank());
    }
    for (int d = 0; d < b.rank(); ++d) {
      if (dims[d] != b.dim(d)) {
        return errors::InvalidArgument("Dimension ", d, " does not equal (no broadcasting is supported): sparse side ",
                                       dims[d], " vs dense side ", b.dim(d));
      }
    }
    const int rank = b.rank();
    if (rank < 1 || rank > 5) {
      return errors::InvalidArgument("Only tensors with ranks between 1 and 5 are currently supported.  Tensor rank: ",
                                     rank);
    }
    const std::vector<int64_t> ix = index_values(ai);
    for (int64_t i = 0; i < ai.dim(0); ++i) {
      for (int d = 0; d < rank; ++d) {
        const int64_t k = ix[i * rank + d];
        if (k < 0 || k >= dims[d]) {
          std::string shape;
          for (int e = 0; e < rank; ++e) shape += (e ? " " : "") + std::to_string(dims[e]);
          return errors::InvalidArgument("Sparse tensor has an invalid index on dimension ", d, ": a_indices(", i, ",",
                                         d, ") = ", k, ", dense tensor shape: ", shape);
        }
      }
    }
    Tensor* out = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, b.shape(), &out));
    T* o = out->data<T>();
    std::copy(b.data<T>(), b.data<T>() + b.num_elements(), o);
    const T* v = av.data<T>();
    for (int64_t i = 0; i < ai.dim(0); ++i) {
      int64_t flat = 0;
      for (int d = 0; d < rank; ++d) flat = flat * dims[d] + ix[i * rank + d];
      o[flat] = functors::wrap_add(o[flat], v[i]);
    }
    return Status::OK();
  }
};

// --- SparseTensorDenseMatMul -----------------------------------------------------------------

template <typename T>
struct SparseTensorDenseMatMulKernel {
  static Status compute(KernelContext& c) {
    const Tensor &ai = c.input(0), &av = c.input(1), &as = c.input(2), &b = c.input(3);
    const bool adj_a = c.attrs.get_bool("adjoint_a", false);
    const bool adj_b = c.attrs.get_bool("adjoint_b", false);
    if (ai.rank() != 2) return errors::InvalidArgument("Tensor 'a_indices' is not a matrix");
    if (av.rank() != 1) return errors::InvalidArgument("Tensor 'a_values' is not a vector");
    if (as.rank() != 1) return errors::InvalidArgument("Tensor 'a_shape' is not a vector");
    if (as.num_elements() != 2) return errors::InvalidArgument("Tensor 'a_shape' must have 2 elements");
    if (b.rank() != 2) return errors::InvalidArgument("Tensor 'b' is not a matrix");
    const int64_t nnz = av.dim(0);
    if (ai.dim(0) != nnz) {
      return errors::InvalidArgument("Number of rows of a_indices does not match number of entries in a_values");
    }
    if (ai.dim(1) != as.num_elements()) {
      return errors::InvalidArgument("Number of columns of a_indices does not match number of entries in a_shape");
    }
    const std::vector<int64_t> a_dims = index_values(as);
    const int64_t outer_left = adj_a ? a_dims[1] : a_dims[0];
    const int64_t inner_left = adj_a ? a_dims[0] : a_dims[1];
    const int64_t outer_right = adj_b ? b.dim(0) : b.dim(1);
    const int64_t inner_right = adj_b ? b.dim(1) : b.dim(0);
    if (inner_left != inner_right) {
      return errors::InvalidArgument("Cannot multiply A and B because inner dimension does not match: ", inner_left,
                                     " vs. ", inner_right, ".  Did you forget a transpose?  Dimensions of A: [",
                                     a_dims[0], ", ", a_dims[1], ").  Dimensions of B: ", b.shape().to_string());
    }
    if (outer_left < 0) return errors::InvalidArgument("Expected shape dimensions to be non-negative, got ", outer_left);
    const Shape out_shape{outer_left, outer_right};
    GRAPHFN_RETURN_IF_ERROR(check_output_size(out_shape, b.dtype()));
    const std::vector<int64_t> ix = index_values(ai);
    const int row_col = adj_a ? 1 : 0;
    const int inner_col = 1 - row_col;
    for (int64_t i = 0; i < nnz; ++i) {
      const int64_t m = ix[i * 2 + row_col];
      const int64_t k = ix[i * 2 + inner_col];
      if (k < 0 || k >= inner_left) {
        return errors::InvalidArgument("k (", k, ") from index[", i, ",", inner_col, "] out of bounds (>=", inner_left, ")");
      }
      if (m < 0 || m >= outer_left) {
        return errors::InvalidArgument("m (", m, ") from index[", i, ",", row_col, "] out of bounds (>=", outer_left, ")");
      }
    }
    Tensor* out = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, out_shape, &out));
    T* o = out->data<T>();
    std::fill(o, o + out->num_elements(), T(0));
    const T* v = av.data<T>();
    const T* pb = b.data<T>();
    const int64_t b_cols = b.dim(1);
    for (int64_t i = 0; i < nnz; ++i) {
      const int64_t m = ix[i * 2 + row_col];
      const int64_t k = ix[i * 2 + inner_col];
      T* out_row = o + m * outer_right;
      const T a = v[i];
      if (adj_b) {
        for (int64_t j = 0; j < outer_right; ++j) out_row[j] = functors::wrap_add(out_row[j], functors::wrap_mul(a, pb[j * b_cols + k]));
      } else {
        const T* b_row = pb + k * b_cols;
        for (int64_t j = 0; j < outer_right; ++j) out_row[j] = functors::wrap_add(out_row[j], functors::wrap_mul(a, b_row[j]));
      }
    }
    return Status::OK();
  }
};

// --- SparseReduceSum / SparseReduceMax (dense and sparse results) ----------------------------

struct Reduction {
  std::vector<int64_t> dims;        // the input's dense shape
  std::vector<bool> reduced;        // per dim
  std::vector<int64_t> out_dims;    // the result's dense shape (kept dims, or 1s with keep_dims)
  std::vector<int64_t> groups;      // sorted entries; a group is a run with equal kept coords
  std::vector<int64_t> group_starts;
};

Status plan_reduction(KernelContext& c, Reduction* r) {
  const Tensor &indices = c.input(0), &values = c.input(1), &shape = c.input(2), &axes_t = c.input(3);
  if (axes_t.rank() > 1) {
    return errors::InvalidArgument("Expected reduction_axes to be a scalar or a vector; got shape: ",
                                   axes_t.shape().to_string());
  }
  if (shape.rank() != 1) return errors::InvalidArgument("shape must be a vector, but got: ", shape.shape().to_string());
  const int rank = static_cast<int>(shape.dim(0));
  std::vector<int64_t> axes = index_values(axes_t);
  r->reduced.assign(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) {
      return errors::InvalidArgument("Invalid reduction dimension ", a, ", for input with ", rank, " dimensions.");
    }
    r->reduced[a < 0 ? a + rank : a] = true;
  }
  if (indices.rank() != 2) return errors::InvalidArgument("indices must be a matrix, but got: ", indices.shape().to_string());
  if (values.rank() != 1) return errors::InvalidArgument("values must be a vector, but got: ", values.shape().to_string());
  if (indices.dim(0) != values.dim(0)) {
    return errors::InvalidArgument("indices and values rows (indexing dimension) must match. (indices = ",
                                   indices.dim(0), ", values = ", values.dim(0), ")");
  }
  r->dims = index_values(shape);
  GRAPHFN_RETURN_IF_ERROR(sparse::dense_shape_product(r->dims, nullptr));
  if (indices.dim(1) != rank) return errors::InvalidArgument("Order length must be SparseTensor rank.");
  const bool keep = c.attrs.get_bool("keep_dims", false);
  for (int d = 0; d < rank; ++d) {
    if (!r->reduced[d]) {
      r->out_dims.push_back(r->dims[d]);
    } else if (keep) {
      r->out_dims.push_back(1);
    }
  }
  return Status::OK();
}

// Sorts the entries with the kept dims first, then the reduced ones, and splits them into runs
// sharing their kept coordinates (one group per result element).
void group_entries(const std::vector<int64_t>& ix, int64_t n, int rank, Reduction* r) {
  std::vector<int> order;
  for (int d = 0; d < rank; ++d) {
    if (!r->reduced[d]) order.push_back(d);
  }
  const size_t kept = order.size();
  for (int d = 0; d < rank; ++d) {
    if (r->reduced[d]) order.push_back(d);
  }
  r->groups = sparse::sorting_permutation(ix, n, rank, order);
  for (int64_t k = 0; k < n; ++k) {
    bool same = k > 0;
    for (size_t o = 0; o < kept && same; ++o) {
      same = row(ix, r->groups[k], rank)[order[o]] == row(ix, r->groups[k - 1], rank)[order[o]];
    }
    if (!same) r->group_starts.push_back(k);
  }
  r->group_starts.push_back(n);
}

template <typename T, bool kMax>
T reduce_group(const T* v, const std::vector<int64_t>& entries, int64_t begin, int64_t end) {
  T acc = v[entries[begin]];
  for (int64_t k = begin + 1; k < end; ++k) {
    const T x = v[entries[k]];
    if constexpr (kMax) {
      acc = (x > acc || (std::is_floating_point_v<T> && std::isnan(static_cast<double>(x)))) ? x : acc;
    } else {
      acc = functors::wrap_add(acc, x);
    }
  }
  return acc;
}

template <typename T, bool kMax, bool kSparse>
Status sparse_reduce(KernelContext& c) {
  Reduction r;
  GRAPHFN_RETURN_IF_ERROR(plan_reduction(c, &r));
  const int rank = static_cast<int>(r.dims.size());
  const int64_t n = c.input(0).dim(0);
  const std::vector<int64_t> ix = index_values(c.input(0));
  group_entries(ix, n, rank, &r);
  const bool keep = c.attrs.get_bool("keep_dims", false);
  const T* v = c.input(1).data<T>();
  const size_t num_groups = r.group_starts.size() - 1;
  // The result coordinates of the group starting at sorted entry k.
  auto out_coords = [&](int64_t k, int64_t* dst) {
    const int64_t* src = row(ix, r.groups[k], rank);
    for (int d = 0; d < rank; ++d) {
      if (!r.reduced[d]) {
        *dst++ = src[d];
      } else if (keep) {
        *dst++ = 0;
      }
    }
  };
  const int out_rank = static_cast<int>(r.out_dims.size());
  if constexpr (kSparse) {
    Tensor *oi = nullptr, *ov = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{static_cast<int64_t>(num_groups), out_rank}, &oi));
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{static_cast<int64_t>(num_groups)}, &ov));
    for (size_t g = 0; g < num_groups; ++g) {
      out_coords(r.group_starts[g], oi->data<int64_t>() + g * out_rank);
      ov->data<T>()[g] = reduce_group<T, kMax>(v, r.groups, r.group_starts[g], r.group_starts[g + 1]);
    }
    return sparse::output_vector(c, 2, r.out_dims);
  } else {
    const Shape out_shape(r.out_dims);
    GRAPHFN_RETURN_IF_ERROR(check_output_size(out_shape, c.input(1).dtype()));
    Tensor* out = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, out_shape, &out));
    T* o = out->data<T>();
    const int64_t size = out->num_elements();
    std::fill(o, o + size, T(0));
    std::vector<int64_t> coords(static_cast<size_t>(out_rank));
    for (size_t g = 0; g < num_groups; ++g) {
      out_coords(r.group_starts[g], coords.data());
      // Row-major position without per-dim checks, as TF; only the final range is checked.
      uint64_t flat = 0;
      for (int d = 0; d < out_rank; ++d) flat = flat * static_cast<uint64_t>(r.out_dims[d]) + static_cast<uint64_t>(coords[d]);
      const int64_t at = static_cast<int64_t>(flat);
      if (at < 0 || at >= size) {
        return errors::Internal("Obtained a write index of ", at, " which is outside of bounds of [0, ", size, ")");
      }
      o[at] = reduce_group<T, kMax>(v, r.groups, r.group_starts[g], r.group_starts[g + 1]);
    }
    return Status::OK();
  }
}

template <typename T> struct SparseReduceSumKernel { static Status compute(KernelContext& c) { return sparse_reduce<T, false, false>(c); } };
template <typename T> struct SparseReduceMaxKernel { static Status compute(KernelContext& c) { return sparse_reduce<T, true, false>(c); } };
template <typename T> struct SparseReduceSumSparseKernel { static Status compute(KernelContext& c) { return sparse_reduce<T, false, true>(c); } };
template <typename T> struct SparseReduceMaxSparseKernel { static Status compute(KernelContext& c) { return sparse_reduce<T, true, true>(c); } };

}  // namespace

void register_sparse_math_kernels(OpRegistry& reg) {
  register_kernels<SparseAddKernel>(reg, "SparseAdd", NumericTypes{});
  register_kernels<SparseAddGradKernel>(reg, "SparseAddGrad", NumericTypes{});
  register_kernels<SparseTensorDenseAddKernel>(reg, "SparseTensorDenseAdd", NumericTypes{});
  register_kernels<SparseTensorDenseMatMulKernel>(reg, "SparseTensorDenseMatMul", TypeList<float, double, int32_t>{});
  register_kernels<SparseSparseMaximumKernel>(reg, "SparseSparseMaximum", NumericTypes{});
  register_kernels<SparseSparseMinimumKernel>(reg, "SparseSparseMinimum", NumericTypes{});
  register_kernels<SparseReduceSumKernel>(reg, "SparseReduceSum", NumericTypes{});
  register_kernels<SparseReduceSumSparseKernel>(reg, "SparseReduceSumSparse", NumericTypes{});
  register_kernels<SparseReduceMaxKernel>(reg, "SparseReduceMax", NumericTypes{});
  register_kernels<SparseReduceMaxSparseKernel>(reg, "SparseReduceMaxSparse", NumericTypes{});
}

}  // namespace graphfn
