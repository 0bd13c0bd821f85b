// The one reduction loop, shared by Sum/Mean/Max/Min/Prod/Any/All and ArgMax/ArgMin.
//
// A reducer R describes the arithmetic:
//   using Acc = ...;                          accumulator type
//   static Acc init();                        identity (the result of an empty reduction)
//   template <class X> static Acc step(Acc acc, X x, int64_t i);
//                                             fold one value (X = input or Acc); i = its
//                                             position along the reduced axis
//   static Out finish(Acc acc, int64_t count);
//   static constexpr bool kIdentityFinish;    finish(acc) == acc, Acc == Out: write in place
//   template <class In> static constexpr bool kFastRow;
//                                             whether R::fast_row(Eigen array of In) folds a
//                                             non-empty contiguous row (vectorised) instead
//   static constexpr bool kSplitRows;         optional: step(Acc, Acc) merges partial folds, so
//                                             long rows fold as fixed blocks (see fold_row)
//
// The input is viewed as runs of kept/reduced dims; each reduced run is folded as the middle
// axis of [outer, n, inner], innermost first, so any set of axes costs one pass per run.
// Large passes run on the intra-op pool, split by output elements (or by fixed blocks of a long
// row), never in a way that changes an output's order of summation with the thread count.
#pragma once
#include <Eigen/Core>
#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

#include "graphfn/core/shape.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/parallel_loops.h"
#include "graphfn/ops/reduction_ops.h"

namespace graphfn {
namespace reduction {

// Whether R folds a long row as fixed blocks whose partial results R::step merges in order
// (`static constexpr bool kSplitRows = true;`: the associative reducers of reduction.cc).
template <typename R, typename = void>
struct SplitsRows : std::false_type {};
template <typename R>
struct SplitsRows<R, std::void_t<decltype(R::kSplitRows)>> : std::bool_constant<R::kSplitRows> {};

// A row longer than this is folded as blocks of this many elements (on the pool when there are
// several threads). The blocks do not depend on the thread count, so the result does not either.
constexpr int64_t kFoldBlock = 32 * 1024;

// Fold of one contiguous row; reducers may supply a faster (vectorised) version.
template <typename R, typename In>
typename R::Acc fold_row(const In* p, int64_t n) {
  if constexpr (R::template kFastRow<In>) {
    using Row = Eigen::Map<const Eigen::Array<In, Eigen::Dynamic, 1>>;
    if (n == 0) return R::init();
    if constexpr (SplitsRows<R>::value) {
      if (n > kFoldBlock) {
        const int64_t blocks = (n + kFoldBlock - 1) / kFoldBlock;
        std::vector<typename R::Acc> partial(static_cast<size_t>(blocks));
        parallel_for_if_large(blocks, kCheapElementsPerShard / kFoldBlock, [&](int64_t b0, int64_t b1) {
          for (int64_t b = b0; b < b1; ++b) {
            const int64_t begin = b * kFoldBlock, end = std::min(n, begin + kFoldBlock);
            partial[b] = R::fast_row(Row(p + begin, end - begin));
          }
        });
        typename R::Acc acc = partial[0];
        for (int64_t b = 1; b < blocks; ++b) acc = R::step(acc, partial[b], b * kFoldBlock);
        return acc;
      }
    }
    return R::fast_row(Row(p, n));
  } else {
    typename R::Acc acc = R::init();
    for (int64_t i = 0; i < n; ++i) acc = R::step(acc, p[i], i);
    return acc;
  }
}

// out[o, j] = fold over i of in[o, i, j]. Large reductions are split over the intra-op pool by
// output elements, so each output is folded in the same order however the work is split.
template <typename R, typename In>
void reduce_middle(const In* in, int64_t outer, int64_t n, int64_t inner, typename R::Acc* out) {
  if (inner == 1) {
    parallel_rows(outer, n, kCheapElementsPerShard, [&](int64_t o0, int64_t o1) {
      for (int64_t o = o0; o < o1; ++o) out[o] = fold_row<R>(in + o * n, n);
    });
    return;
  }
  // Columns [j0, j1) of outer slice o, row by row, so the inner loop runs over contiguous
  // memory (and vectorises).
  auto columns = [&](int64_t o, int64_t j0, int64_t j1) {
    const In* base = in + o * n * inner;
    typename R::Acc* dst = out + o * inner;
    for (int64_t j = j0; j < j1; ++j) dst[j] = R::init();
    for (int64_t i = 0; i < n; ++i) {
      const In* src = base + i * inner;
      for (int64_t j = j0; j < j1; ++j) dst[j] = R::step(dst[j], src[j], i);
    }
  };
  if (outer >= parallel_threads()) {
    parallel_rows(outer, n * inner, kCheapElementsPerShard, [&](int64_t o0, int64_t o1) {
      for (int64_t o = o0; o < o1; ++o) columns(o, 0, inner);
    });
  } else {
    for (int64_t o = 0; o < outer; ++o) {
      parallel_rows(inner, n, kCheapElementsPerShard, [&](int64_t j0, int64_t j1) { columns(o, j0, j1); });
    }
  }
}

// Reduces the dims of `shape` flagged in `reduced`; `out` holds the kept dims (row-major).
// The shape function has checked that the output size is sane.
template <typename R, typename In, typename Out>
void reduce(const In* in, const Shape& shape, const std::vector<bool>& reduced, Out* out) {
  using Acc = typename R::Acc;
  bool empty = false;
  for (int64_t d : shape.dims()) empty = empty || d == 0;
  if (empty) {
    // Nothing to fold: every output is the identity (a zero-sized kept dim means no outputs).
    int64_t n_out = 1;
    for (int i = 0; i < shape.rank(); ++i) n_out *= reduced[i] ? 1 : shape.dim(i);
    for (int64_t i = 0; i < n_out; ++i) out[i] = R::finish(R::init(), 0);
    return;
  }
  // Runs of same-role dims, ignoring size-1 dims (they do not change the layout).
  std::vector<int64_t> dims;
  std::vector<bool> red;
  int64_t count = 1;
  for (int i = 0; i < shape.rank(); ++i) {
    const int64_t d = shape.dim(i);
    if (reduced[i]) count *= d;
    if (d == 1) continue;
    if (!dims.empty() && red.back() == reduced[i]) {
      dims.back() *= d;
    } else {
      dims.push_back(d);
      red.push_back(reduced[i]);
    }
  }
  bool any_reduced = false;
  for (bool r : red) any_reduced = any_reduced || r;
  if (!any_reduced) {  // an identity pass still converts In -> Acc -> Out
    dims.push_back(1);
    red.push_back(true);
  }
  constexpr bool kDirect = R::kIdentityFinish && std::is_same_v<Acc, Out>;
  std::unique_ptr<Acc[]> bufs[2];  // not std::vector: Acc may be bool
  const Acc* prev = nullptr;
  Acc* result = nullptr;
  int n_passes = 0;
  for (bool r : red) n_passes += r;
  for (int g = static_cast<int>(dims.size()) - 1, pass = 0; g >= 0; --g) {
    if (!red[g]) continue;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < g; ++i) outer *= dims[i];
    for (size_t i = g + 1; i < dims.size(); ++i) inner *= dims[i];
    Acc* dst = nullptr;
    if constexpr (kDirect) {
      if (pass == n_passes - 1) dst = out;  // the last pass writes the output itself
    }
    if (!dst) dst = (bufs[pass % 2] = std::unique_ptr<Acc[]>(new Acc[outer * inner])).get();
    if (pass == 0) {
      reduce_middle<R>(in, outer, dims[g], inner, dst);
    } else {
      reduce_middle<R>(prev, outer, dims[g], inner, dst);
    }
    prev = result = dst;
    dims.erase(dims.begin() + g);
    red.erase(red.begin() + g);
    ++pass;
  }
  if constexpr (!kDirect) {
    int64_t n_out = 1;
    for (int64_t d : dims) n_out *= d;
    for (int64_t i = 0; i < n_out; ++i) out[i] = R::finish(result[i], count);
  }
}

// The kernel of Sum/Mean/Prod/Max/Min/Any/All for element type T: input 0 folded by R<T> over
// the axes input 1 names (shared by the real dtypes, reduction.cc, and the wider ones,
// dtype_reduction.cc).
template <template <typename> class R>
struct OverAxes {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      const Tensor& in = c.input(0);
      std::vector<bool> reduced;
      GRAPHFN_RETURN_IF_ERROR(reduction_axes(c.input(1), in.rank(), &reduced));
      Tensor& out = c.allocate_output(0);
      reduce<R<T>>(in.data<T>(), in.shape(), reduced, out.data<T>());
      return Status::OK();
    }
  };
};

}  // namespace reduction
}  // namespace graphfn
