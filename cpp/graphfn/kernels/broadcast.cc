// The shape-dependent part of the binary broadcasting loop (kernels/broadcast.h), compiled once
// for every op and dtype: the element type is only its size here.
#include "graphfn/kernels/broadcast.h"

#include <algorithm>
#include <vector>

#include "graphfn/kernels/parallel_loops.h"

namespace graphfn {
namespace {

// parallel_elementwise (kernels/parallel_loops.h) for an output of `out_size`-byte elements:
// every shard but the first starts on a 64-byte boundary of the output.
template <typename Fn>
void parallel_output_elements(const char* out, size_t out_size, int64_t n, Fn&& fn) {
  if (n < 2 * kCheapElementsPerShard || parallel_threads() == 1) {
    fn(int64_t{0}, n);
    return;
  }
  constexpr int64_t kLine = 64;
  const auto size = static_cast<int64_t>(out_size);
  const int64_t block = size >= kLine ? 1 : kLine / size;
  const auto misalign = static_cast<int64_t>(reinterpret_cast<uintptr_t>(out) % kLine);
  int64_t head = misalign % size != 0 ? 0 : ((kLine - misalign) % kLine) / size;
  if (head > n) head = n;
  parallel_for_blocks(n - head, kCheapElementsPerShard, block, [&](int64_t b, int64_t e) {
    fn(b == 0 ? int64_t{0} : head + b, head + e);
  });
}

}  // namespace

void broadcast_binary_rows(const Tensor& a, const Tensor& b, Tensor& out, size_t in_size, size_t out_size,
                           BinaryRowsFn rows_fn, const void* f) {
  const char* pa = static_cast<const char*>(a.raw_data());
  const char* pb = static_cast<const char*>(b.raw_data());
  char* po = static_cast<char*>(out.raw_data());
  const int64_t n = out.num_elements();
  const int64_t na = a.num_elements(), nb = b.num_elements();
  const auto isz = static_cast<int64_t>(in_size), osz = static_cast<int64_t>(out_size);
  // Equal shapes or scalar operands: one row, split over the pool when large.
  if (n == 1 && na == 1 && nb == 1) {  // scalars (the usual eager scalar op): one call, no pool
    rows_fn(f, pa, 1, 0, pb, 1, 0, po, 1, 1);
    return;
  }
  const bool a_whole = na == n, b_whole = nb == n;
  if (n > 0 && (a_whole || na == 1) && (b_whole || nb == 1)) {
    const int64_t sa = a_whole ? 1 : 0, sb = b_whole ? 1 : 0;
    parallel_output_elements(po, out_size, n, [&](int64_t begin, int64_t end) {
      rows_fn(f, pa + begin * sa * isz, sa, 0, pb + begin * sb * isz, sb, 0, po + begin * osz, end - begin, 1);
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
  // Rows are the output's last dimension; a block is a run of rows along the one before it
  // (rank >= 2 here: in a rank-1 broadcast each operand is whole or a scalar), which the row function walks
  // itself. An odometer runs over the dimensions before those two.
  const int64_t inner = os.dim(rank - 1);
  const int64_t block = os.dim(rank - 2);
  const int64_t ia_step = sa[rank - 1], ib_step = sb[rank - 1];
  const int64_t ia_row = sa[rank - 2], ib_row = sb[rank - 2];
  // Output rows [first, last), started at `first`.
  auto rows = [&](int64_t first, int64_t last) {
    std::vector<int64_t> index(rank, 0);
    int64_t off_a = 0, off_b = 0;
    for (int64_t d = rank - 2, rest = first; d >= 0; --d) {
      index[d] = rest % os.dim(d);
      rest /= os.dim(d);
      off_a += index[d] * sa[d];
      off_b += index[d] * sb[d];
    }
    for (int64_t r = first; r < last;) {
      const int64_t count = std::min(last - r, block - index[rank - 2]);
      rows_fn(f, pa + off_a * isz, ia_step, ia_row, pb + off_b * isz, ib_step, ib_row, po + r * inner * osz, inner,
              count);
      r += count;
      off_a += count * ia_row;
      off_b += count * ib_row;
      index[rank - 2] += count;
      if (index[rank - 2] < block) continue;  // the shard ends inside this block
      // Advance the odometer over the dimensions before the last two.
      off_a -= ia_row * block;
      off_b -= ib_row * block;
      index[rank - 2] = 0;
      for (int d = rank - 3; d >= 0; --d) {
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
