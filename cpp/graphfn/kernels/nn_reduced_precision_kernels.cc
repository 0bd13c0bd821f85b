// float16 and bfloat16 kernels of the fused activations (Elu, Selu, Relu6, LeakyRelu, Softplus,
// Softsign) and their gradient ops, and of ReluGrad: what a mixed-precision model (Keras's
// mixed_float16 / mixed_bfloat16 policies) runs in its layers and their gradients. (BiasAdd and
// BiasAddGrad for these dtypes are in wide_dtype_kernels.cc; Softmax, LogSoftmax and the
// cross-entropies in softmax.cc; convolutions, pooling and batch norm in
// nn_reduced_precision_windows.cc.)
//
// TF's kernels evaluate these formulas as Eigen expressions on the reduced type itself, so every
// step (an exp, a sum, a product) is computed in float and rounded to T before the next one. The
// kernels below spell out TF's formulas step by step in T's arithmetic (Eigen::half and
// Eigen::bfloat16 round each operation), which gives TF's bits rather than the exact value
// rounded once.
#include <Eigen/Core>
#include <cmath>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

// out[i] = f(x[i]) over one input.
template <typename T, typename F>
Status reduced_unary(KernelContext& c, F f) {
  const T* x = c.input(0).data<T>();
  Tensor& out = c.allocate_output(0);
  T* o = out.data<T>();
  for (int64_t i = 0; i < out.num_elements(); ++i) o[i] = f(x[i]);
  return Status::OK();
}

// out[i] = f(gradients[i], y[i]) over two same-shaped inputs.
template <typename T, typename F>
Status reduced_binary(KernelContext& c, F f) {
  const T* g = c.input(0).data<T>();
  const T* y = c.input(1).data<T>();
  Tensor& out = c.allocate_output(0);
  T* o = out.data<T>();
  for (int64_t i = 0; i < out.num_elements(); ++i) o[i] = f(g[i], y[i]);
  return Status::OK();
}

template <typename T>
T exp_of(T x) {
  return Eigen::numext::exp(x);
}

// SELU's constants as T, as TF's kernel rounds them.
template <typename T>
T selu_scale() {
  return static_cast<T>(1.0507009873554804934193349852946);
}
template <typename T>
T selu_scale_alpha() {
  return static_cast<T>(1.7580993408473768599402175208123);
}

// The gradient times a 0/1 factor, as TF's ReluGrad and Relu6Grad multiply: a negative gradient
// masked off gives -0, an infinite or NaN one NaN.
template <typename T>
T gradient_where(T g, bool keep) {
  return g * T(keep ? 1.0f : 0.0f);
}

template <typename T>
struct ReducedReluGrad {
  static Status compute(KernelContext& c) {
    return reduced_binary<T>(c, [](T g, T f) { return gradient_where(g, f > T(0.0f)); });
  }
};

template <typename T>
struct ReducedRelu6 {
  static Status compute(KernelContext& c) {
    return reduced_unary<T>(c, [](T x) {
      if (Eigen::numext::isnan(x)) return x;  // NaN propagates through TF's max and min
      return x < T(0.0f) ? T(0.0f) : (x > T(6.0f) ? T(6.0f) : x);
    });
  }
};

template <typename T>
struct ReducedRelu6Grad {
  static Status compute(KernelContext& c) {
    return reduced_binary<T>(c, [](T g, T f) { return gradient_where(g, f > T(0.0f) && f < T(6.0f)); });
  }
};

// x < 0: exp(x) - 1; else x.
template <typename T>
struct ReducedElu {
  static Status compute(KernelContext& c) {
    return reduced_unary<T>(c, [](T x) { return x < T(0.0f) ? exp_of(x) - T(1.0f) : x; });
  }
};

// y < 0: (y + 1) * g; else g.
template <typename T>
struct ReducedEluGrad {
  static Status compute(KernelContext& c) {
    return reduced_binary<T>(c, [](T g, T y) { return y < T(0.0f) ? (y + T(1.0f)) * g : g; });
  }
};

// x < 0: scale_alpha * (exp(x) - 1); else scale * x.
template <typename T>
struct ReducedSelu {
  static Status compute(KernelContext& c) {
    const T scale = selu_scale<T>(), scale_alpha = selu_scale_alpha<T>();
    return reduced_unary<T>(c, [=](T x) { return x < T(0.0f) ? scale_alpha * (exp_of(x) - T(1.0f)) : scale * x; });
  }
};

// y < 0: g * (y + scale_alpha); else g * scale.
template <typename T>
struct ReducedSeluGrad {
  static Status compute(KernelContext& c) {
    const T scale = selu_scale<T>(), scale_alpha = selu_scale_alpha<T>();
    return reduced_binary<T>(c, [=](T g, T y) { return y < T(0.0f) ? g * (y + scale_alpha) : g * scale; });
  }
};

// TF rounds the float attr alpha to T.
template <typename T>
T leaky_alpha(const KernelContext& c) {
  return static_cast<T>(static_cast<float>(c.attrs.get_float("alpha", 0.2)));
}

template <typename T>
struct ReducedLeakyRelu {
  static Status compute(KernelContext& c) {
    const T alpha = leaky_alpha<T>(c);
    return reduced_unary<T>(c, [=](T x) { return x > T(0.0f) ? x : x * alpha; });
  }
};

template <typename T>
struct ReducedLeakyReluGrad {
  static Status compute(KernelContext& c) {
    const T alpha = leaky_alpha<T>(c);
    return reduced_binary<T>(c, [=](T g, T f) { return f > T(0.0f) ? g : g * alpha; });
  }
};

// softplus(x) is x above -threshold, exp(x) below threshold and log1p(exp(x)) between, with
// threshold = log(T's epsilon) + 2 computed in T (about -4.93 for float16, -2.85 for bfloat16),
// as TF's kernel chooses.
template <typename T>
struct ReducedSoftplus {
  static Status compute(KernelContext& c) {
    const T threshold = Eigen::numext::log(Eigen::NumTraits<T>::epsilon()) + T(2.0f);
    return reduced_unary<T>(c, [=](T x) {
      if (x > -threshold) return x;
      const T e = exp_of(x);
      return x < threshold ? e : Eigen::numext::log1p(e);
    });
  }
};

// g / (exp(-f) + 1).
template <typename T>
struct ReducedSoftplusGrad {
  static Status compute(KernelContext& c) {
    return reduced_binary<T>(c, [](T g, T f) { return g / (exp_of(-f) + T(1.0f)); });
  }
};

// x / (|x| + 1).
template <typename T>
struct ReducedSoftsign {
  static Status compute(KernelContext& c) {
    return reduced_unary<T>(c, [](T x) { return x / (Eigen::numext::abs(x) + T(1.0f)); });
  }
};

// g / (|f| + 1)^2, the square rounded before the division.
template <typename T>
struct ReducedSoftsignGrad {
  static Status compute(KernelContext& c) {
    return reduced_binary<T>(c, [](T g, T f) {
      const T d = Eigen::numext::abs(f) + T(1.0f);
      return g / (d * d);
    });
  }
};

}  // namespace

void register_nn_reduced_precision_kernels(OpRegistry& reg) {
  register_kernels<ReducedReluGrad>(reg, "ReluGrad", HalfTypes{});
  register_kernels<ReducedRelu6>(reg, "Relu6", HalfTypes{});
  register_kernels<ReducedRelu6Grad>(reg, "Relu6Grad", HalfTypes{});
  register_kernels<ReducedElu>(reg, "Elu", HalfTypes{});
  register_kernels<ReducedEluGrad>(reg, "EluGrad", HalfTypes{});
  register_kernels<ReducedSelu>(reg, "Selu", HalfTypes{});
  register_kernels<ReducedSeluGrad>(reg, "SeluGrad", HalfTypes{});
  register_kernels<ReducedLeakyRelu>(reg, "LeakyRelu", HalfTypes{});
  register_kernels<ReducedLeakyReluGrad>(reg, "LeakyReluGrad", HalfTypes{});
  register_kernels<ReducedSoftplus>(reg, "Softplus", HalfTypes{});
  register_kernels<ReducedSoftplusGrad>(reg, "SoftplusGrad", HalfTypes{});
  register_kernels<ReducedSoftsign>(reg, "Softsign", HalfTypes{});
  register_kernels<ReducedSoftsignGrad>(reg, "SoftsignGrad", HalfTypes{});
}

}  // namespace graphfn
