// Matrix product kernels (MatMul, SparseMatMul, BatchMatMulV2/V3). float and double products
// go through kernels/gemm.h (the panel loop when tiny, else OpenBLAS over the intra-op pool);
// the integer types and SparseMatMul's zero-skipping products use the panel loop of
// kernels/gemm_panels.h. Integer products wrap (two's complement, like TF).
#include <type_traits>
#include <vector>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/gemm.h"
#include "graphfn/kernels/gemm_panels.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

struct Dims {
  int64_t m, k, n;
  bool ta, tb;  // a is stored [k, m] / b is stored [n, k]
};

template <typename T>
constexpr bool kLibraryType = std::is_same_v<T, float> || std::is_same_v<T, double>;

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
  const A* xp = x.data<A>();
  const B* yp = y.data<B>();
  C* op = out.data<C>();
  if constexpr (kLibraryType<C> && std::is_same_v<A, C> && std::is_same_v<B, C>) {
    gemm_batched<C>(static_cast<int64_t>(ix.size()), d.ta, d.tb, d.m, d.n, d.k, xp, ix.data(), yp, iy.data(), op);
  } else {
    std::vector<A> ta_buf;
    std::vector<B> tb_buf;
    for (size_t b = 0; b < ix.size(); ++b) {
      panel_gemm::product(xp + ix[b] * d.m * d.k, yp + iy[b] * d.k * d.n, op + b * d.m * d.n, d.m, d.k, d.n, d.ta,
                          d.tb, &ta_buf, &tb_buf);
    }
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
  const T* ap = a.data<T>();
  const T* bp = c.input(1).data<T>();
  if constexpr (kLibraryType<T> && !kSkipA && !kSkipB) {
    gemm<T>(d.ta, d.tb, d.m, d.n, d.k, ap, d.ta ? d.m : d.k, bp, d.tb ? d.k : d.n, out.data<T>(), d.n);
  } else {
    std::vector<T> ta_buf, tb_buf;
    panel_gemm::product<kSkipA, kSkipB>(ap, bp, out.data<T>(), d.m, d.k, d.n, d.ta, d.tb, &ta_buf, &tb_buf);
  }
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
