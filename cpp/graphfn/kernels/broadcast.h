// The one broadcasting loop for binary element-wise kernels: out[i] = f(a[ia], b[ib]).
//
// Split in two so that each op and dtype instantiates only a short loop over one row:
//   - broadcast_binary_rows (broadcast.cc, compiled once) finds the shapes' case (equal shapes,
//     a scalar operand, or general broadcasting: an odometer over the output's outer dimensions
//     with per-operand strides, 0 along broadcast dimensions), splits large outputs over the
//     intra-op pool (kernels/parallel_loops.h), and calls a row function on each stretch;
//   - binary_rows<In, Out, F> is that row function: out[j] = f(a[j * sa], b[j * sb]) with sa and
//     sb each 0 (a broadcast operand) or 1, a plain loop that the compiler vectorises per case,
//     over several rows at once (the output's last two dimensions), so short rows cost no call
//     each.
// Every element is computed the same way whichever shard or row holds it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "graphfn/core/tensor.h"

// Marks a loop driver that takes its per-element work as a function pointer: without it GCC may
// inline or clone the driver per pointer (one copy per op and dtype again) when caller and driver
// share a translation unit (unity builds).
#if defined(__GNUC__) && !defined(__clang__)
#define GRAPHFN_SHARED_DRIVER __attribute__((noipa))
#else
#define GRAPHFN_SHARED_DRIVER __attribute__((noinline))
#endif

namespace graphfn {

// For each of `rows` rows r: out[r * n + j] = f(a[r * ra + j * sa], b[r * rb + j * sb]) for j in
// [0, n), with sa and sb each 0 or 1 and ra, rb any element strides; `f` points to the functor.
using BinaryRowsFn = void (*)(const void* f, const void* a, int64_t sa, int64_t ra, const void* b, int64_t sb,
                              int64_t rb, void* out, int64_t n, int64_t rows);

GRAPHFN_SHARED_DRIVER void broadcast_binary_rows(const Tensor& a, const Tensor& b, Tensor& out, size_t in_size,
                                                 size_t out_size, BinaryRowsFn rows_fn, const void* f);

template <typename In, typename Out, typename F>
void binary_rows(const void* fp, const void* a, int64_t sa, int64_t ra, const void* b, int64_t sb, int64_t rb,
                 void* out, int64_t n, int64_t rows) {
  const F& f = *static_cast<const F*>(fp);
  for (int64_t r = 0; r < rows; ++r) {
    const In* pa = static_cast<const In*>(a) + r * ra;
    const In* pb = static_cast<const In*>(b) + r * rb;
    Out* po = static_cast<Out*>(out) + r * n;
    if (sa != 0 && sb != 0) {
      for (int64_t j = 0; j < n; ++j) po[j] = f(pa[j], pb[j]);
    } else if (sb != 0) {
      const In s = pa[0];
      for (int64_t j = 0; j < n; ++j) po[j] = f(s, pb[j]);
    } else if (sa != 0) {
      const In s = pb[0];
      for (int64_t j = 0; j < n; ++j) po[j] = f(pa[j], s);
    } else {
      const Out v = f(pa[0], pb[0]);
      for (int64_t j = 0; j < n; ++j) po[j] = v;
    }
  }
}

template <typename In, typename Out, typename F>
void broadcast_binary_loop(const Tensor& a, const Tensor& b, Tensor& out, const F& f) {
  broadcast_binary_rows(a, b, out, sizeof(In), sizeof(Out), &binary_rows<In, Out, F>, &f);
}

}  // namespace graphfn
