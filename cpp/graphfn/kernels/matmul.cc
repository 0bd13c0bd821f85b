// Matrix product kernels (MatMul, SparseMatMul, BatchMatMulV2/V3). One 2-D routine does the work:
//  - small or integer products: an i-k-j loop over fixed-width column panels, vectorised over
//    the panel (Eigen's GEMM packs and blocks first, several times slower at these sizes);
//  - large float products: Eigen's GEMM on row-major Maps (single-threaded; see the report in
//    benchmarks/cpp/matmul_bench.cc for the measurements behind the threshold).
// Integer products wrap (two's complement, like TF) by accumulating in an unsigned type.
#include <Eigen/Core>
#include <array>
#include <type_traits>
#include <utility>
#include <vector>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

// Accumulator: the float type itself, or an unsigned integer at least as wide as `int` (so
// that products of 16-bit values are not promoted to signed int and overflow).
template <typename C, bool = std::is_floating_point_v<C>>
struct AccOf { using type = C; };
template <typename C>
struct AccOf<C, false> {
  using type = std::conditional_t<(sizeof(C) <= 4), uint32_t, uint64_t>;
};

// m*k*n at and above which float products go to Eigen's GEMM (where it overtakes the panel
// loop; benchmarks/cpp/matmul_bench.cc), and the column panel width of the loop.
constexpr int64_t kEigenGemmWork = 16 * 16 * 16;
constexpr int kPanel = 16;

struct Dims {
  int64_t m, k, n;
  bool ta, tb;  // a is stored [k, m] / b is stored [n, k]
};

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
GRAPHFN_SLP_ONLY void gemm_panel(const A* a, const B* b, C* c, int64_t m, int64_t k, int64_t n) {
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
  return {&gemm_panel<Ns, kSkipA, kSkipB, A, B, C>...};
}

// c[m, n] = a[m, k] * b[k, n] in column panels of kPanel, the last one narrower.
template <bool kSkipA, bool kSkipB, typename A, typename B, typename C>
void gemm_panels(const A* a, const B* b, C* c, int64_t m, int64_t k, int64_t n) {
  static constexpr auto kByWidth =
      panel_table<kSkipA, kSkipB, A, B, C>(std::make_integer_sequence<int, kPanel + 1>{});
  int64_t j = 0;
  for (; j + kPanel <= n; j += kPanel) gemm_panel<kPanel, kSkipA, kSkipB>(a, b + j, c + j, m, k, n);
  if (j < n) kByWidth[n - j](a, b + j, c + j, m, k, n);
}

template <typename T>
void gemm_eigen(const T* a, const T* b, T* c, const Dims& d) {
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const Mat> A(a, d.ta ? d.k : d.m, d.ta ? d.m : d.k);
  Eigen::Map<const Mat> B(b, d.tb ? d.n : d.k, d.tb ? d.k : d.n);
  Eigen::Map<Mat> out(c, d.m, d.n);
  if (!d.ta && !d.tb) out.noalias() = A * B;
  if (!d.ta && d.tb) out.noalias() = A * B.transpose();
  if (d.ta && !d.tb) out.noalias() = A.transpose() * B;
  if (d.ta && d.tb) out.noalias() = A.transpose() * B.transpose();
}

// One matrix product with optional transposes. `ta_buf`/`tb_buf` hold transposed copies for
// the i-k-j loop; callers keep them across batches to reuse the memory.
template <bool kSkipA = false, bool kSkipB = false, typename A, typename B, typename C>
void matmul_2d(const A* a, const B* b, C* c, const Dims& d, std::vector<A>* ta_buf,
               std::vector<B>* tb_buf) {
  constexpr bool kDense = !kSkipA && !kSkipB;
  if constexpr (kDense && std::is_floating_point_v<C> && std::is_same_v<A, C> && std::is_same_v<B, C>) {
    // (The work estimate is in double: m*k*n of empty-ish operands could overflow int64.)
    if (d.k > 0 && static_cast<double>(d.m) * d.k * d.n >= kEigenGemmWork) return gemm_eigen(a, b, c, d);
  }
  if (d.ta) {
    transpose_into(a, d.k, d.m, ta_buf);
    a = ta_buf->data();
  }
  if (d.tb) {
    transpose_into(b, d.n, d.k, tb_buf);
    b = tb_buf->data();
  }
  gemm_panels<kSkipA, kSkipB>(a, b, c, d.m, d.k, d.n);
}

int64_t batch_count(const Shape& s) {
  int64_t n = 1;
  for (int i = 0; i + 2 < s.rank(); ++i) n *= s.dim(i);
  return n;
}

Shape batch_shape(const Shape& s) {
  return Shape(std::vector<int64_t>(s.dims().begin(), s.dims().end() - 2));
}

// For every output batch, the index of the x and y matrices it multiplies (NumPy broadcasting
// of the batch dims), computed with the element-wise broadcasting loop on index tensors.
void batch_pairs(const Shape& xs, const Shape& ys, const Shape& out, std::vector<int64_t>* ix,
                 std::vector<int64_t>* iy) {
  const int64_t nx = batch_count(xs), ny = batch_count(ys), nout = batch_count(out);
  Tensor x_index(DType::kInt64, batch_shape(xs)), y_index(DType::kInt64, batch_shape(ys));
  for (int64_t i = 0; i < nx; ++i) x_index.data<int64_t>()[i] = i;
  for (int64_t i = 0; i < ny; ++i) y_index.data<int64_t>()[i] = i;
  Tensor pair(DType::kInt64, batch_shape(out));
  broadcast_binary_loop<int64_t, int64_t>(x_index, y_index, pair,
                                          [ny](int64_t i, int64_t j) { return i * ny + j; });
  ix->resize(nout);
  iy->resize(nout);
  for (int64_t b = 0; b < nout; ++b) {
    (*ix)[b] = pair.data<int64_t>()[b] / ny;
    (*iy)[b] = pair.data<int64_t>()[b] % ny;
  }
}

template <typename A, typename B, typename C>
Status batch_matmul(KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& y = c.input(1);
  Tensor& out = c.allocate_output(0);
  if (out.num_elements() == 0) return Status::OK();
  const Shape& xs = x.shape();
  const Shape& ys = y.shape();
  Dims d;
  d.ta = c.attrs.get_bool("adj_x", false);
  d.tb = c.attrs.get_bool("adj_y", false);
  d.m = xs.dim(xs.rank() - (d.ta ? 1 : 2));
  d.k = xs.dim(xs.rank() - (d.ta ? 2 : 1));
  d.n = ys.dim(ys.rank() - (d.tb ? 2 : 1));
  std::vector<int64_t> ix, iy;
  batch_pairs(xs, ys, out.shape(), &ix, &iy);
  std::vector<A> ta_buf;
  std::vector<B> tb_buf;
  const A* xp = x.data<A>();
  const B* yp = y.data<B>();
  C* op = out.data<C>();
  for (size_t b = 0; b < ix.size(); ++b) {
    matmul_2d(xp + ix[b] * d.m * d.k, yp + iy[b] * d.k * d.n, op + b * d.m * d.n, d, &ta_buf, &tb_buf);
  }
  return Status::OK();
}

template <bool kSkipA, bool kSkipB, typename T>
Status matmul(KernelContext& c) {
  const Tensor& a = c.input(0);
  Tensor& out = c.allocate_output(0);
  Dims d;
  d.ta = c.attrs.get_bool("transpose_a", false);
  d.tb = c.attrs.get_bool("transpose_b", false);
  d.m = out.dim(0);
  d.n = out.dim(1);
  d.k = a.dim(d.ta ? 0 : 1);
  if (out.num_elements() == 0) return Status::OK();
  std::vector<T> ta_buf, tb_buf;
  matmul_2d<kSkipA, kSkipB>(a.data<T>(), c.input(1).data<T>(), out.data<T>(), d, &ta_buf, &tb_buf);
  return Status::OK();
}

template <typename T>
struct MatMulKernel {
  static Status compute(KernelContext& c) { return matmul<false, false, T>(c); }
};

template <typename T>
struct SparseMatMulKernel {
  static Status compute(KernelContext& c) {
    const bool sa = c.attrs.get_bool("a_is_sparse", false), sb = c.attrs.get_bool("b_is_sparse", false);
    if (sa && sb) return matmul<true, true, T>(c);
    if (sa) return matmul<true, false, T>(c);
    if (sb) return matmul<false, true, T>(c);
    return matmul<false, false, T>(c);
  }
};

template <typename T>
struct BatchMatMulV2Kernel {
  static Status compute(KernelContext& c) { return batch_matmul<T, T, T>(c); }
};

// V3 is picked by Ta; the shape function has admitted only the (Tb, Tout) pairs TF has CPU
// kernels for: (Ta, Ta) and (u)int8 x (u)int8 -> int32.
template <typename Ta>
struct BatchMatMulV3Kernel {
  static Status compute(KernelContext& c) {
    const DType tb = c.type_attr("Tb");
    if constexpr (std::is_same_v<Ta, int8_t> || std::is_same_v<Ta, uint8_t>) {
      if (tb == DType::kInt8) return batch_matmul<Ta, int8_t, int32_t>(c);
      return batch_matmul<Ta, uint8_t, int32_t>(c);
    } else {
      return batch_matmul<Ta, Ta, Ta>(c);
    }
  }
};

}  // namespace

void register_matmul_kernels(OpRegistry& reg) {
  register_kernels<MatMulKernel>(reg, "MatMul", TypeList<float, double, int32_t, int64_t>{});
  register_kernels<SparseMatMulKernel>(reg, "SparseMatMul", TypeList<float>{});
  register_kernels<BatchMatMulV2Kernel>(reg, "BatchMatMulV2", TypeList<float, double, int16_t, int32_t, int64_t>{});
  register_kernels<BatchMatMulV3Kernel>(reg, "BatchMatMulV3",
                                        TypeList<float, double, int8_t, uint8_t, int16_t, int32_t, int64_t>{});
}

}  // namespace graphfn
