// Helpers shared by the sparse kernels (kernels/sparse_*.cc): a SparseTensor arrives as three
// tensors (indices [N, rank] int64, values [N], dense_shape [rank] int64). Each kernel checks
// them with TF's own words, which differ from op to op, so the checks here take no message.
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "graphfn/core/status.h"
#include "graphfn/core/tensor.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace sparse {

// The indices as int64 (int32 ones are widened; int64 ones copied once, the kernels are O(N)).
inline std::vector<int64_t> index_values(const Tensor& t) {
  std::vector<int64_t> v;
  (void)int_values(t, &v);
  return v;
}

// Row i of an [N, rank] index matrix held row-major in `ix`.
inline const int64_t* row(const std::vector<int64_t>& ix, int64_t i, int rank) { return ix.data() + i * rank; }

// Lexicographic comparison of two index rows: -1, 0 or 1.
inline int compare_rows(const int64_t* a, const int64_t* b, int rank) {
  for (int d = 0; d < rank; ++d) {
    if (a[d] != b[d]) return a[d] < b[d] ? -1 : 1;
  }
  return 0;
}

// The permutation that sorts the N rows lexicographically along `order` (a permutation of the
// dims), stable so duplicates keep their input order.
inline std::vector<int64_t> sorting_permutation(const std::vector<int64_t>& ix, int64_t n, int rank,
                                                const std::vector<int>& order) {
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), int64_t{0});
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    const int64_t* ra = row(ix, a, rank);
    const int64_t* rb = row(ix, b, rank);
    for (int d : order) {
      if (ra[d] != rb[d]) return ra[d] < rb[d];
    }
    return false;
  });
  return perm;
}

inline std::vector<int> identity_order(int rank) {
  std::vector<int> order(static_cast<size_t>(rank));
  std::iota(order.begin(), order.end(), 0);
  return order;
}

// TF's TensorShape check on a dense shape given as a vector.
inline Status check_non_negative_shape(const std::vector<int64_t>& shape) {
  for (int64_t d : shape) {
    if (d < 0) return errors::InvalidArgument("Expected shape dimensions to be non-negative, got ", d);
  }
  return Status::OK();
}

// TF's element count of a dense shape (TensorShape's checks, dim by dim): a negative dim, or a
// running product that overflows int64, fails with TF's text. TF multiplies in uint64 and reports
// the product as int64 when it fits in 64 bits (so it may print as negative), else -1.
inline Status dense_shape_product(const std::vector<int64_t>& dims, int64_t* product) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return errors::InvalidArgument("Expected shape dimensions to be non-negative, got ", d);
    uint64_t wide = 0;
    const bool wraps = __builtin_mul_overflow(static_cast<uint64_t>(n), static_cast<uint64_t>(d), &wide);
    const int64_t next = wraps ? -1 : static_cast<int64_t>(wide);
    if (next < 0) {
      return errors::InvalidArgument("Encountered overflow when multiplying ", n, " with ", d, ", result: ", next);
    }
    n = next;
  }
  if (product) *product = n;
  return Status::OK();
}

// "[2,3]" for error messages.
inline std::string bracketed(const std::vector<int64_t>& v, const char* sep = ",") {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s + "]";
}
inline std::string bracketed(const int64_t* v, int n) { return bracketed(std::vector<int64_t>(v, v + n)); }

// Copies rows `perm` of an [N, rank] index matrix into output `i` ([perm.size(), rank] int64).
inline Status output_index_rows(KernelContext& c, int i, const std::vector<int64_t>& ix, int rank,
                                const std::vector<int64_t>& perm) {
  Tensor* out = nullptr;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(i, Shape{static_cast<int64_t>(perm.size()), rank}, &out));
  int64_t* p = out->data<int64_t>();
  for (int64_t k : perm) p = std::copy_n(row(ix, k, rank), rank, p);
  return Status::OK();
}

// Output `i` holds `values` (a vector).
inline Status output_vector(KernelContext& c, int i, const std::vector<int64_t>& values) {
  Tensor* out = nullptr;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(i, Shape{static_cast<int64_t>(values.size())}, &out));
  std::copy(values.begin(), values.end(), out->data<int64_t>());
  return Status::OK();
}

// Output `i` holds the elements `perm` of the vector `values`, of any dtype.
template <typename T>
Status output_gathered(KernelContext& c, int i, const Tensor& values, const std::vector<int64_t>& perm) {
  Tensor* out = nullptr;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(i, Shape{static_cast<int64_t>(perm.size())}, &out));
  const T* v = values.data<T>();
  T* o = out->data<T>();
  for (size_t k = 0; k < perm.size(); ++k) o[k] = v[perm[k]];
  return Status::OK();
}

// The ranks and counts of a SparseTensor's [indices, values, shape], in TF's words (SparseReorder,
// SparseSlice, SparseSparseMaximum/Minimum).
inline Status check_sparse_triple(const Tensor& indices, const Tensor& values, const Tensor& shape) {
  if (indices.rank() != 2) return errors::InvalidArgument("Sparse indices must be rank 2 but is rank ", indices.rank());
  if (values.rank() != 1) return errors::InvalidArgument("Sparse values must be rank 1 but is rank ", values.rank());
  if (shape.rank() != 1) return errors::InvalidArgument("Sparse shape must be rank 1 but is rank ", shape.rank());
  if (indices.dim(0) != values.dim(0)) {
    return errors::InvalidArgument("Number of elements in indices (", indices.dim(0), ") and values (", values.dim(0),
                                   ") do not match");
  }
  if (indices.dim(1) != shape.dim(0)) {
    return errors::InvalidArgument("Index rank (", indices.dim(1), ") and shape rank (", shape.dim(0), ") do not match");
  }
  return Status::OK();
}

}  // namespace sparse
}  // namespace graphfn
