// Kernels of ops/cwise_extra_ops.cc, generic loops (these ops are rare): float16/bfloat16
// compute in float and round once (SigmoidGrad and TanhGrad: step by step, as TF). The fused gradient ops conjugate y where TF's do (Sqrt,
// Rsqrt, Reciprocal: the derivative's conjugate), not for Sigmoid and Tanh, whose TF kernels
// multiply plainly.
#include <Eigen/Core>
#include <cmath>
#include <complex>
#include <type_traits>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduced_precision.h"

namespace graphfn {
namespace {

template <typename C>
C conjugate_if_complex(const C& v) {
  if constexpr (IsComplex<C>::value) return std::conj(v); else return v;
}

struct SigmoidGradOf { template <typename C> static C apply(C y, C dy) { return dy * (y * (C(1) - y)); } };
struct TanhGradOf { template <typename C> static C apply(C y, C dy) { return dy * (C(1) - y * y); } };
struct SqrtGradOf {
  template <typename C> static C apply(C y, C dy) { return dy * C(0.5) / conjugate_if_complex(y); }
};
struct RsqrtGradOf {
  template <typename C> static C apply(C y, C dy) {
    const C cy = conjugate_if_complex(y);
    return C(-0.5) * dy * cy * cy * cy;
  }
};
struct ReciprocalGradOf {
  template <typename C> static C apply(C y, C dy) {
    const C cy = conjugate_if_complex(y);
    return -dy * cy * cy;
  }
};

// TF's fused gradient kernels need as many elements in dy as in y (no broadcasting).
// kStepwise: float16/bfloat16 compute in their own arithmetic, each product and difference
// rounded to T, as TF's SigmoidGrad and TanhGrad kernels do; otherwise in float, rounded once.
template <typename F, bool kStepwise = false>
struct FusedGrad {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      using C = std::conditional_t<kStepwise, T, ComputeType<T>>;
      const Tensor& y = c.input(0);
      const Tensor& dy = c.input(1);
      if (y.num_elements() != dy.num_elements()) {
        return errors::InvalidArgument("The two arguments to a cwise op must have same number of elements, got ",
                                       y.num_elements(), " and ", dy.num_elements());
      }
      const T* py = y.data<T>();
      const T* pdy = dy.data<T>();
      Tensor& out = c.allocate_output(0);
      T* pz = out.data<T>();
      for (int64_t i = 0; i < out.num_elements(); ++i) {
        pz[i] = static_cast<T>(F::apply(static_cast<C>(py[i]), static_cast<C>(pdy[i])));
      }
      return Status::OK();
    }
  };
};

template <typename T>
struct ApproximateEqualKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const Tensor& y = c.input(1);
    if (x.shape() != y.shape()) {
      return errors::InvalidArgument("x and y must be of the same shape. x shape: ", x.shape(), ". y shape: ", y.shape());
    }
    const T tolerance = static_cast<T>(c.attrs.get_float("tolerance", 1e-5));
    const T* px = x.data<T>();
    const T* py = y.data<T>();
    Tensor& out = c.allocate_output(0);
    bool* pz = out.data<bool>();
    for (int64_t i = 0; i < out.num_elements(); ++i) pz[i] = std::abs(px[i] - py[i]) < tolerance;
    return Status::OK();
  }
};

// log(1 + y); for complex y Eigen's log(u) * y / (u - 1), u = 1 + y (as TF's kernels, and
// kernels/wide_dtype_kernels.cc's Log1p).
template <typename C>
C log1p_of(C y) {
  if constexpr (IsComplex<C>::value) {
    const C u = C(1) + y;
    const C log_u(std::log(std::abs(u)), std::arg(u));  // log|u| + i arg u, as TF's build computes it
    if (u == C(1) || u == log_u) return y;
    return y * (log_u / (u - C(1)));
  } else {
    return std::log1p(y);
  }
}

template <typename T>
struct Xlog1pyKernel {
  static Status compute(KernelContext& c) {
    using C = ComputeType<T>;
    broadcast_binary_loop<T, T>(c.input(0), c.input(1), c.allocate_output(0), [](const T& x, const T& y) {
      // float16/bfloat16: log1p is rounded to T before the product, as TF's kernel computes in T.
      const C cx = static_cast<C>(x);
      const C log1p_y = static_cast<C>(static_cast<T>(log1p_of(static_cast<C>(y))));
      return static_cast<T>(cx == C(0) ? C(0) : cx * log1p_y);
    });
    return Status::OK();
  }
};

template <typename T>
struct NextAfterKernel {
  static Status compute(KernelContext& c) {
    broadcast_binary_loop<T, T>(c.input(0), c.input(1), c.allocate_output(0),
                                [](const T& x1, const T& x2) { return std::nextafter(x1, x2); });
    return Status::OK();
  }
};

using GradTypes = Concat<FloatTypes, HalfTypes, ComplexTypes>;

}  // namespace

void register_cwise_extra_kernels(OpRegistry& reg) {
  register_kernels<FusedGrad<SigmoidGradOf, true>::Kernel>(reg, "SigmoidGrad", GradTypes{});
  register_kernels<FusedGrad<TanhGradOf, true>::Kernel>(reg, "TanhGrad", GradTypes{});
  register_kernels<FusedGrad<SqrtGradOf>::Kernel>(reg, "SqrtGrad", GradTypes{});
  register_kernels<FusedGrad<RsqrtGradOf>::Kernel>(reg, "RsqrtGrad", GradTypes{});
  register_kernels<FusedGrad<ReciprocalGradOf>::Kernel>(reg, "ReciprocalGrad", GradTypes{});
  register_kernels<FusedGrad<ReciprocalGradOf>::Kernel>(reg, "InvGrad", GradTypes{});
  register_kernels<ApproximateEqualKernel>(reg, "ApproximateEqual", FloatTypes{});
  register_kernels<Xlog1pyKernel>(reg, "Xlog1py", GradTypes{});
  register_kernels<NextAfterKernel>(reg, "NextAfter", FloatTypes{});
}

}  // namespace graphfn
