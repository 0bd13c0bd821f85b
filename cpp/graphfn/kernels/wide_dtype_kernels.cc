// Kernels of existing ops on the dtypes TF 2.21's CPU kernels accept beyond the first nine:
//  - float16/bfloat16 through the op's float32 kernel (through_float.h): for ops whose
//    result only selects or orders values (TopKV2, sorting, ArgMax/ArgMin,
//    ClipByValue) the widening and rounding back are exact; the random ops draw in float and
//    round (uniform values round down, staying below 1); float16 Lgamma and Digamma compute
//    in float as TF's do. One generic function, no new
//    instantiations: these dtypes are rare on CPU.
//  - BiasAdd/BiasAddGrad on float16, bfloat16, complex and uint16/32/64: generic loops.
//  - complex Sigmoid, Expm1, Log1p, Reciprocal, Rsqrt and Sign, as TF's Eigen computes them.
#include <Eigen/Core>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduced_precision.h"
#include "graphfn/kernels/serial_unary.h"
#include "graphfn/kernels/through_float.h"

namespace graphfn {
namespace {

// ---- BiasAdd / BiasAddGrad: value as [outer, channels, inner] (inner > 1 only for NCHW) ----

struct BiasShape {
  int64_t outer = 1, channels = 0, inner = 1;
};

BiasShape bias_shape_of(const Shape& s, const AttrMap& attrs) {
  const std::string* format = attrs.get_string("data_format");
  const int axis = format && *format == "NCHW" && s.rank() > 2 ? 1 : s.rank() - 1;
  BiasShape b;
  b.channels = s.dim(axis);
  for (int i = 0; i < axis; ++i) b.outer *= s.dim(i);
  for (int i = axis + 1; i < s.rank(); ++i) b.inner *= s.dim(i);
  return b;
}

// Each sum rounds once to T, as TF's Eigen kernels do.
template <typename T>
struct WideBiasAddKernel {
  static Status compute(KernelContext& c) {
    using C = ComputeType<T>;
    const Tensor& value = c.input(0);
    const BiasShape b = bias_shape_of(value.shape(), c.attrs);
    const T* pv = value.data<T>();
    const T* pb = c.input(1).data<T>();
    T* po = c.allocate_output(0).data<T>();
    for (int64_t n = 0; n < b.outer; ++n) {
      for (int64_t ch = 0; ch < b.channels; ++ch) {
        const int64_t base = (n * b.channels + ch) * b.inner;
        for (int64_t i = 0; i < b.inner; ++i) {
          po[base + i] = static_cast<T>(static_cast<C>(static_cast<C>(pv[base + i]) + static_cast<C>(pb[ch])));
        }
      }
    }
    return Status::OK();
  }
};

// Sums over every axis but the channels': float16 and bfloat16 in float (TF's float16 kernel
// does; its bfloat16 one adds in bfloat16), unsigned integers wrapping.
template <typename T>
struct WideBiasAddGradKernel {
  static Status compute(KernelContext& c) {
    using Acc = ComputeType<T>;
    const Tensor& grad = c.input(0);
    const BiasShape b = bias_shape_of(grad.shape(), c.attrs);
    std::vector<Acc> sums(static_cast<size_t>(b.channels), Acc(0));
    const T* pg = grad.data<T>();
    for (int64_t n = 0; n < b.outer; ++n) {
      for (int64_t ch = 0; ch < b.channels; ++ch) {
        const T* p = pg + (n * b.channels + ch) * b.inner;
        for (int64_t i = 0; i < b.inner; ++i) sums[ch] = static_cast<Acc>(sums[ch] + static_cast<Acc>(p[i]));
      }
    }
    T* po = c.allocate_output(0).data<T>();
    for (int64_t ch = 0; ch < b.channels; ++ch) po[ch] = static_cast<T>(sums[ch]);
    return Status::OK();
  }
};

// ---- complex unary math (TF's CPU kernels: Eigen's formulas) ----

// e^z / (1 + e^z): for large Re z the 1 is lost and the result is exactly 1, as TF's.
struct ComplexSigmoid {
  template <typename C> static C apply(C z) {
    const C e = std::exp(z);
    return e / (C(1) + e);
  }
};
// exp(z) - 1 without cancellation for small |z|: (expm1(x) - 2 e^x sin^2(y/2)) + i e^x sin(y).
struct ComplexExpm1 {
  template <typename C> static C apply(C z) {
    using R = typename C::value_type;
    const R em1 = std::expm1(z.real()), e = em1 + R(1);
    const R half_sin = std::sin(z.imag() / R(2));
    return C(em1 - R(2) * e * half_sin * half_sin, e * std::sin(z.imag()));
  }
};
// log(u) * z / (u - 1) with u = 1 + z: the rounding of u cancels (z itself where u is 1 or
// infinite), Eigen's log1p, which TF's kernels use.
template <typename C>
C complex_log1p(C z) {
  const C u = C(1) + z;
  const C log_u(std::log(std::abs(u)), std::arg(u));  // log|u| + i arg u, as TF's build computes it
  if (u == C(1) || u == log_u) return z;
  return z * (log_u / (u - C(1)));
}

struct ComplexLog1p {
  template <typename C> static C apply(C z) { return complex_log1p(z); }
};
struct ComplexReciprocal {
  template <typename C> static C apply(C z) { return C(1) / z; }
};
struct ComplexRsqrt {
  template <typename C> static C apply(C z) { return C(1) / std::sqrt(z); }
};
// z / |z| (0 at 0), each part divided by the modulus.
struct ComplexSign {
  template <typename C> static C apply(C z) {
    const auto modulus = std::abs(z);
    if (modulus == 0) return C(0);
    return C(z.real() / modulus, z.imag() / modulus);
  }
};

}  // namespace

void register_wide_dtype_kernels(OpRegistry& reg) {
  for (const char* op : {"TopKV2", "StableSort", "ArgMax", "ArgMin", "ClipByValue",
                         "RandomStandardNormal", "StatelessRandomNormal", "StatelessTruncatedNormal", "TruncatedNormal",
                         "CumulativeLogsumexp"}) {
    register_through_float(reg, op);
  }
  for (const char* op : {"RandomUniform", "StatelessRandomUniform"}) register_through_float(reg, op, /*round_down=*/true);
  // TF has float16 (not bfloat16) kernels of these, computing in float.
  for (const char* op : {"Lgamma", "Digamma"}) reg.set_kernel(op, DType::kHalf, &compute_through_float<false>);
  using NewTypes = Concat<HalfTypes, ComplexTypes, WideUnsignedTypes>;
  register_kernels<WideBiasAddKernel>(reg, "BiasAdd", NewTypes{});
  register_kernels<WideBiasAddGradKernel>(reg, "BiasAddGrad", NewTypes{});
  register_kernels<SerialUnary<ComplexSigmoid>::Kernel>(reg, "Sigmoid", ComplexTypes{});
  register_kernels<SerialUnary<ComplexExpm1>::Kernel>(reg, "Expm1", ComplexTypes{});
  register_kernels<SerialUnary<ComplexLog1p>::Kernel>(reg, "Log1p", ComplexTypes{});
  register_kernels<SerialUnary<ComplexReciprocal>::Kernel>(reg, "Reciprocal", ComplexTypes{});
  register_kernels<SerialUnary<ComplexRsqrt>::Kernel>(reg, "Rsqrt", ComplexTypes{});
  register_kernels<SerialUnary<ComplexSign>::Kernel>(reg, "Sign", ComplexTypes{});
}

}  // namespace graphfn
