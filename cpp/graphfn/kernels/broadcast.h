// The one broadcasting loop for binary element-wise kernels: out[i] = f(a[ia], b[ib]).
//
// Split in two so that each op and dtype instantiates only a short loop over one row:
//   - broadcast_binary_rows (broadcast.cc, compiled once) finds the shapes' case (equal shapes,
//     a scalar operand, or general broadcasting: an odometer over the output's outer dimensions
//     with per-operand strides, 0 along broadcast dimensions), splits large outputs over the
//     intra-op pool (kernels/parallel_loops.h), and calls a row function on each stretch;
//   - binary_row<In, Out, F> is that row function: out[j] = f(a[j * sa], b[j * sb]) with sa and
//     sb each 0 (a broadcast operand) or 1, a plain loop that the compiler vectorises per case.
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

// out[j] = f(a[j * sa], b[j * sb]) for j in [0, n); `f` points to the functor.
using BinaryRowFn = void (*)(const void* f, const void* a, int64_t sa, const void* b, int64_t sb, void* out,
                             int64_t n);

GRAPHFN_SHARED_DRIVER void broadcast_binary_rows(const Tensor& a, const Tensor& b, Tensor& out, size_t in_size, size_t out_size,
                           BinaryRowFn row, const void* f);

template <typename In, typename Out, typename F>
void binary_row(const void* fp, const void* a, int64_t sa, const void* b, int64_t sb, void* out, int64_t n) {
  const F& f = *static_cast<const F*>(fp);
  const In* pa = static_cast<const In*>(a);
  const In* pb = static_cast<const In*>(b);
  Out* po = static_cast<Out*>(out);
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

template <typename In, typename Out, typename F>
void broadcast_binary_loop(const Tensor& a, const Tensor& b, Tensor& out, const F& f) {
  broadcast_binary_rows(a, b, out, sizeof(In), sizeof(Out), &binary_row<In, Out, F>, &f);
}

}  // namespace graphfn
