// Kernels of ops/linalg_more_ops.cc that move entries (band parts, diagonals, cross products);
// the decompositions are in linalg_decompositions.cc.
#include <Eigen/Core>  // float16/bfloat16 elements
#include <algorithm>
#include <string>
#include <vector>

#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/matrix_batches.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

template <typename T>
struct BandPartKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    std::vector<int64_t> lo, hi;
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &lo));
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(2), &hi));
    const int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    Tensor& out = c.allocate_output(0);
    const T* in = x.data<T>();
    T* o = out.data<T>();
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          const int64_t at = (b * m + i) * n + j;
          const bool keep = (lo[0] < 0 || i - j <= lo[0]) && (hi[0] < 0 || j - i <= hi[0]);
          o[at] = keep ? in[at] : T();
        }
      }
    }
    return Status::OK();
  }
};

// The diagonals k in [lo, hi] of an m x n matrix, TF's packing: one row per diagonal (hi first),
// `max_len` entries, each diagonal aligned left or right per `align`.
struct DiagLayout {
  int64_t m, n, lo, hi, max_len;
  bool left_super, left_sub;  // align of superdiagonals / subdiagonals
  int64_t length(int64_t d) const { return std::min(m + std::min<int64_t>(0, d), n - std::max<int64_t>(0, d)); }
  int64_t offset(int64_t d) const {
    const bool left = (d >= 0 && left_super) || (d <= 0 && left_sub);
    return left ? 0 : max_len - length(d);
  }
  // Calls fn(row_in_pack, pos_in_pack, i, j) for every element of every diagonal.
  template <typename Fn>
  void each(Fn fn) const {
    for (int64_t d = hi; d >= lo; --d) {
      const int64_t len = length(d), off = offset(d);
      for (int64_t t = 0; t < len; ++t) {
        const int64_t i = t - std::min<int64_t>(0, d), j = t + std::max<int64_t>(0, d);
        fn(hi - d, off + t, i, j);
      }
    }
  }
};

Status read_k(const Tensor& k, int64_t* lo, int64_t* hi) {
  std::vector<int64_t> v;
  GRAPHFN_RETURN_IF_ERROR(int_values(k, &v));
  *lo = v.empty() ? 0 : v[0];
  *hi = v.size() > 1 ? v[1] : *lo;
  return Status::OK();
}

// The packing of one op version: V3 has the `align` attr (default RIGHT_LEFT); V2 always packs
// LEFT_LEFT, as TF's MatrixDiagV2 family does; V1 has the main diagonal only (no packing).
enum class DiagVersion { kV1, kV2, kV3 };

DiagLayout layout(const AttrMap& attrs, DiagVersion version, int64_t m, int64_t n, int64_t lo, int64_t hi) {
  const std::string* a = version == DiagVersion::kV3 ? attrs.get_string("align") : nullptr;
  const std::string align = a ? *a : (version == DiagVersion::kV3 ? "RIGHT_LEFT" : "LEFT_LEFT");
  DiagLayout l{m, n, lo, hi, 0, align.rfind("LEFT_", 0) == 0, align.size() >= 4 && align.substr(align.size() - 4) == "LEFT"};
  for (int64_t d = lo; d <= hi; ++d) l.max_len = std::max(l.max_len, l.length(d));
  return l;
}

// The diagonal range and padding of an op's call: V1 ops have neither input (k = 0, padding 0).
template <typename T>
Status diag_args(KernelContext& c, DiagVersion version, int k_input, int pad_input, int64_t* lo, int64_t* hi, T* pad) {
  *lo = *hi = 0;
  *pad = T();
  if (version == DiagVersion::kV1) return Status::OK();
  GRAPHFN_RETURN_IF_ERROR(read_k(c.input(k_input), lo, hi));
  if (pad_input >= 0) *pad = c.input(pad_input).data<T>()[0];
  return Status::OK();
}

// MatrixDiagPart{,V2,V3}(input[, k, padding_value]).
template <typename T, DiagVersion V>
struct DiagPartKernelOf {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    int64_t lo = 0, hi = 0;
    T pad;
    GRAPHFN_RETURN_IF_ERROR(diag_args<T>(c, V, 1, 2, &lo, &hi, &pad));
    const int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    const DiagLayout l = layout(c.attrs, V, m, n, lo, hi);
    Tensor& out = c.allocate_output(0);
    const int64_t per = (hi - lo + 1) * l.max_len;
    std::fill_n(out.data<T>(), out.num_elements(), pad);
    for (int64_t b = 0; b < batches; ++b) {
      const T* in = x.data<T>() + b * m * n;
      T* o = out.data<T>() + b * per;
      l.each([&](int64_t row, int64_t pos, int64_t i, int64_t j) { o[row * l.max_len + pos] = in[i * n + j]; });
    }
    return Status::OK();
  }
};

// MatrixDiag{,V2,V3}(diagonal[, k, num_rows, num_cols, padding_value]).
template <typename T, DiagVersion V>
struct DiagKernelOf {
  static Status compute(KernelContext& c) {
    const Tensor& d = c.input(0);
    int64_t lo = 0, hi = 0;
    T pad;
    GRAPHFN_RETURN_IF_ERROR(diag_args<T>(c, V, 1, 4, &lo, &hi, &pad));
    Tensor& out = c.allocate_output(0);
    const int64_t m = out.dim(out.rank() - 2), n = out.dim(out.rank() - 1), batches = matrix_batch_size(out.shape());
    DiagLayout l = layout(c.attrs, V, m, n, lo, hi);
    l.max_len = d.dim(d.rank() - 1);
    const int64_t per = (hi - lo + 1) * l.max_len;
    std::fill_n(out.data<T>(), out.num_elements(), pad);
    for (int64_t b = 0; b < batches; ++b) {
      const T* in = d.data<T>() + b * per;
      T* o = out.data<T>() + b * m * n;
      l.each([&](int64_t row, int64_t pos, int64_t i, int64_t j) { o[i * n + j] = in[row * l.max_len + pos]; });
    }
    return Status::OK();
  }
};

// MatrixSetDiag{,V2,V3}(input, diagonal[, k]).
template <typename T, DiagVersion V>
struct SetDiagKernelOf {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const Tensor& d = c.input(1);
    int64_t lo = 0, hi = 0;
    T unused;
    GRAPHFN_RETURN_IF_ERROR(diag_args<T>(c, V, 2, -1, &lo, &hi, &unused));
    Tensor& out = c.allocate_output(0);
    const int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    const DiagLayout l = layout(c.attrs, V, m, n, lo, hi);
    const int64_t per = (hi - lo + 1) * l.max_len;
    std::copy_n(x.data<T>(), x.num_elements(), out.data<T>());
    for (int64_t b = 0; b < batches; ++b) {
      const T* in = d.data<T>() + b * per;
      T* o = out.data<T>() + b * m * n;
      l.each([&](int64_t row, int64_t pos, int64_t i, int64_t j) { o[i * n + j] = in[row * l.max_len + pos]; });
    }
    return Status::OK();
  }
};

template <typename T>
using DiagPartV1Kernel = DiagPartKernelOf<T, DiagVersion::kV1>;
template <typename T>
using DiagPartV2Kernel = DiagPartKernelOf<T, DiagVersion::kV2>;
template <typename T>
using DiagPartKernel = DiagPartKernelOf<T, DiagVersion::kV3>;
template <typename T>
using DiagV1Kernel = DiagKernelOf<T, DiagVersion::kV1>;
template <typename T>
using DiagV2Kernel = DiagKernelOf<T, DiagVersion::kV2>;
template <typename T>
using DiagKernel = DiagKernelOf<T, DiagVersion::kV3>;
template <typename T>
using SetDiagV1Kernel = SetDiagKernelOf<T, DiagVersion::kV1>;
template <typename T>
using SetDiagV2Kernel = SetDiagKernelOf<T, DiagVersion::kV2>;
template <typename T>
using SetDiagKernel = SetDiagKernelOf<T, DiagVersion::kV3>;

template <typename T, bool = std::is_integral_v<T>>
struct WrapType { using type = T; };
template <typename T>
struct WrapType<T, true> { using type = std::make_unsigned_t<T>; };

template <typename T>
struct CrossKernel {
  static Status compute(KernelContext& c) {
    const T* a = c.input(0).data<T>();
    const T* b = c.input(1).data<T>();
    Tensor& out = c.allocate_output(0);
    T* o = out.data<T>();
    using W = typename WrapType<T>::type;  // integers wrap
    for (int64_t v = 0; v < out.num_elements() / 3; ++v) {
      const W* x = reinterpret_cast<const W*>(a + 3 * v);
      const W* y = reinterpret_cast<const W*>(b + 3 * v);
      o[3 * v] = static_cast<T>(W(x[1] * y[2]) - W(x[2] * y[1]));
      o[3 * v + 1] = static_cast<T>(W(x[2] * y[0]) - W(x[0] * y[2]));
      o[3 * v + 2] = static_cast<T>(W(x[0] * y[1]) - W(x[1] * y[0]));
    }
    return Status::OK();
  }
};

using StructureTypes = TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool>;
// The diagonal and band ops move elements only: every dtype TF 2.21's CPU kernels take.
using DiagTypes = Concat<StructureTypes, HalfTypes, ComplexTypes, WideUnsignedTypes>;

}  // namespace

void register_linalg_decomposition_kernels(OpRegistry& reg);
void register_linalg_eig_kernels(OpRegistry& reg);
void register_linalg_complex_solve_kernels(OpRegistry& reg);

void register_linalg_more_kernels(OpRegistry& reg) {
  register_linalg_decomposition_kernels(reg);  // linalg_decompositions.cc
  register_linalg_eig_kernels(reg);            // linalg_eig.cc
  register_linalg_complex_solve_kernels(reg);  // linalg_complex_solve.cc
  register_kernels<BandPartKernel>(reg, "MatrixBandPart", DiagTypes{});
  register_kernels<DiagPartKernel>(reg, "MatrixDiagPartV3", DiagTypes{});
  register_kernels<DiagKernel>(reg, "MatrixDiagV3", DiagTypes{});
  register_kernels<SetDiagKernel>(reg, "MatrixSetDiagV3", DiagTypes{});
  register_kernels<DiagPartV2Kernel>(reg, "MatrixDiagPartV2", DiagTypes{});
  register_kernels<DiagV2Kernel>(reg, "MatrixDiagV2", DiagTypes{});
  register_kernels<SetDiagV2Kernel>(reg, "MatrixSetDiagV2", DiagTypes{});
  register_kernels<DiagPartV1Kernel>(reg, "MatrixDiagPart", DiagTypes{});
  register_kernels<DiagV1Kernel>(reg, "MatrixDiag", DiagTypes{});
  register_kernels<SetDiagV1Kernel>(reg, "MatrixSetDiag", DiagTypes{});
  register_kernels<CrossKernel>(reg, "Cross", Concat<TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t>, HalfTypes,
                                                   WideUnsignedTypes>{});
}

}  // namespace graphfn
