// The small-product loop of the matrix kernels (kernels/gemm.cc for float/double below the
// library threshold, kernels/matmul.cc for the integer types and SparseMatMul): an i-k-j loop
// over fixed-width column panels, vectorised over the panel. At these sizes a library GEMM's
// packing and call overhead cost several times the arithmetic (benchmarks/cpp/matmul_bench.cc).
// Integer products wrap (two's complement, like TF) by accumulating in an unsigned type.
#pragma once
#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace graphfn {
namespace panel_gemm {

// Accumulator: the float type itself, or an unsigned integer at least as wide as `int` (so
// that products of 16-bit values are not promoted to signed int and overflow).
template <typename C, bool = std::is_floating_point_v<C>>
struct AccOf { using type = C; };
template <typename C>
struct AccOf<C, false> {
  using type = std::conditional_t<(sizeof(C) <= 4), uint32_t, uint64_t>;
};

// The column panel width of the loop.
constexpr int kPanel = 16;

// Row-major transpose of an r x c matrix into dst (c x r).
template <typename T>
void transpose_into(const T* src, int64_t r, int64_t c, std::vector<T>* dst) {
  dst->resize(static_cast<size_t>(r * c));
  for (int64_t i = 0; i < r; ++i) {
    for (int64_t j = 0; j < c; ++j) (*dst)[j * r + i] = src[i * c + j];
  }
}

// GCC's loop vectoriser would vectorise the k loop across the unrolled j lanes (with
// gathers, several times slower for 64-bit types); its SLP vectoriser handles the j lanes.
#if defined(__GNUC__) && !defined(__clang__)
#define GRAPHFN_SLP_ONLY __attribute__((optimize("no-tree-loop-vectorize")))
#else
#define GRAPHFN_SLP_ONLY
#endif

// Columns [0, N) of c[m, n] = a[m, k] * b[k, n] (row-major, untransposed; b and c keep their
// row stride n). With N fixed the accumulators live in registers. kSkipA/kSkipB (SparseMatMul)
// leave out terms whose factor from that side is 0, so 0 * inf or 0 * NaN there adds nothing.
template <int N, bool kSkipA, bool kSkipB, typename A, typename B, typename C>
GRAPHFN_SLP_ONLY void panel(const A* a, const B* b, C* c, int64_t m, int64_t k, int64_t n) {
  using Acc = typename AccOf<C>::type;
  for (int64_t i = 0; i < m; ++i) {
    Acc acc[N > 0 ? N : 1] = {};
    const A* arow = a + i * k;
    for (int64_t p = 0; p < k; ++p) {
      const Acc av = static_cast<Acc>(static_cast<C>(arow[p]));
      if constexpr (kSkipA) {
        if (av == Acc(0)) continue;
      }
      const B* brow = b + p * n;
      for (int j = 0; j < N; ++j) {
        const Acc bv = static_cast<Acc>(static_cast<C>(brow[j]));
        if constexpr (kSkipB) {
          acc[j] += bv == Acc(0) ? Acc(0) : av * bv;
        } else {
          acc[j] += av * bv;
        }
      }
    }
    C* crow = c + i * n;
    for (int j = 0; j < N; ++j) crow[j] = static_cast<C>(acc[j]);
  }
}

template <typename A, typename B, typename C>
using PanelFn = void (*)(const A*, const B*, C*, int64_t, int64_t, int64_t);
template <bool kSkipA, bool kSkipB, typename A, typename B, typename C, int... Ns>
constexpr std::array<PanelFn<A, B, C>, sizeof...(Ns)> panel_table(std::integer_sequence<int, Ns...>) {
  return {&panel<Ns, kSkipA, kSkipB, A, B, C>...};
}

// c[m, n] = a[m, k] * b[k, n] (dense row-major) in column panels of kPanel, the last narrower.
template <bool kSkipA, bool kSkipB, typename A, typename B, typename C>
void panels(const A* a, const B* b, C* c, int64_t m, int64_t k, int64_t n) {
  static constexpr auto kByWidth =
      panel_table<kSkipA, kSkipB, A, B, C>(std::make_integer_sequence<int, kPanel + 1>{});
  int64_t j = 0;
  for (; j + kPanel <= n; j += kPanel) panel<kPanel, kSkipA, kSkipB>(a, b + j, c + j, m, k, n);
  if (j < n) kByWidth[n - j](a, b + j, c + j, m, k, n);
}

// c = op(a) * op(b) for dense operands (a stored [k, m] when ta, b stored [n, k] when tb);
// transposed operands are first copied into `ta_buf`/`tb_buf` (callers keep them across a batch).
template <bool kSkipA = false, bool kSkipB = false, typename A, typename B, typename C>
void product(const A* a, const B* b, C* c, int64_t m, int64_t k, int64_t n, bool ta, bool tb,
             std::vector<A>* ta_buf, std::vector<B>* tb_buf) {
  if (ta) {
    transpose_into(a, k, m, ta_buf);
    a = ta_buf->data();
  }
  if (tb) {
    transpose_into(b, n, k, tb_buf);
    b = tb_buf->data();
  }
  panels<kSkipA, kSkipB>(a, b, c, m, k, n);
}

}  // namespace panel_gemm
}  // namespace graphfn
