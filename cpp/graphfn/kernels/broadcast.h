// The one broadcasting loop for binary element-wise kernels: out[i] = f(a[ia], b[ib]).
// Fast paths for equal shapes and scalar operands; otherwise an odometer over the output
// with per-operand strides (0 along broadcast dimensions). Large outputs run on the intra-op
// pool (kernels/parallel_loops.h).
#pragma once
#include <vector>

#include "graphfn/core/tensor.h"
#include "graphfn/kernels/parallel_loops.h"

namespace graphfn {

template <typename In, typename Out, typename F>
void broadcast_binary_loop(const Tensor& a, const Tensor& b, Tensor& out, F f) {
  const In* pa = a.data<In>();
  const In* pb = b.data<In>();
  Out* po = out.data<Out>();
  const int64_t n = out.num_elements();
  const int64_t na = a.num_elements(), nb = b.num_elements();
  // Large outputs are split over the intra-op pool; every element is computed the same way
  // whichever shard holds it.
  if (na == n && nb == n) {
    parallel_elementwise(po, n, kCheapElementsPerShard, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) po[i] = f(pa[i], pb[i]);
    });
    return;
  }
  if (na == 1 && nb == n) {
    const In s = pa[0];
    parallel_elementwise(po, n, kCheapElementsPerShard, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) po[i] = f(s, pb[i]);
    });
    return;
  }
  if (nb == 1 && na == n) {
    const In s = pb[0];
    parallel_elementwise(po, n, kCheapElementsPerShard, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) po[i] = f(pa[i], s);
    });
    return;
  }
  if (n == 0) return;
  const Shape& os = out.shape();
  const int rank = os.rank();
  // Strides of a and b aligned to the output's rank; 0 where the operand broadcasts.
  std::vector<int64_t> sa(rank, 0), sb(rank, 0);
  int64_t stride_a = 1, stride_b = 1;
  for (int i = rank - 1; i >= 0; --i) {
    const int ia = a.rank() - rank + i, ib = b.rank() - rank + i;
    if (ia >= 0) {
      sa[i] = a.dim(ia) == 1 ? 0 : stride_a;
      stride_a *= a.dim(ia);
    }
    if (ib >= 0) {
      sb[i] = b.dim(ib) == 1 ? 0 : stride_b;
      stride_b *= b.dim(ib);
    }
  }
  const int64_t inner = os.dim(rank - 1);
  const int64_t ia_step = sa[rank - 1], ib_step = sb[rank - 1];
  // Output rows [first, last): an odometer over the outer dimensions, started at `first`.
  auto rows = [&](int64_t first, int64_t last) {
    std::vector<int64_t> index(rank, 0);
    int64_t off_a = 0, off_b = 0;
    for (int64_t d = rank - 2, rest = first; d >= 0; --d) {
      index[d] = rest % os.dim(d);
      rest /= os.dim(d);
      off_a += index[d] * sa[d];
      off_b += index[d] * sb[d];
    }
    for (int64_t r = first; r < last; ++r) {
      Out* o = po + r * inner;
      for (int64_t j = 0; j < inner; ++j) o[j] = f(pa[off_a + j * ia_step], pb[off_b + j * ib_step]);
      // Advance the odometer over the outer dimensions.
      for (int d = rank - 2; d >= 0; --d) {
        off_a += sa[d];
        off_b += sb[d];
        if (++index[d] < os.dim(d)) break;
        off_a -= sa[d] * os.dim(d);
        off_b -= sb[d] * os.dim(d);
        index[d] = 0;
      }
    }
  };
  parallel_rows(n / inner, inner, kCheapElementsPerShard, rows);
}

}  // namespace graphfn
