// Kernels of the fused activations (Elu, Selu, Relu6, LeakyRelu, Softplus, Softsign), their
// gradient ops, and L2Loss. Float kernels are Eigen array expressions written with max/min
// (vectorised: Eigen's select() is not) or plain loops the compiler vectorises; Relu6 also takes
// integers, through the same expressions on integer arrays.
#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

template <typename T>
using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
template <typename T>
using In = Eigen::Map<const Array<T>>;
template <typename T>
using Out = Eigen::Map<Array<T>>;

template <typename T>
In<T> in(const KernelContext& c, int i) {
  return In<T>(c.input(i).data<T>(), c.input(i).num_elements());
}

template <typename T>
Out<T> out(KernelContext& c) {
  Tensor& t = c.allocate_output(0);
  return Out<T>(t.data<T>(), t.num_elements());
}

// SELU's constants (Klambauer et al.), as TF's kernel uses them.
constexpr double kSeluScale = 1.0507009873554804934193349852946;
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;

template <typename T>
struct EluKernel {
  static Status compute(KernelContext& c) {
    const auto x = in<T>(c, 0);
    // x where x > 0, else exp(x) - 1 (as TF's kernel: exp - 1, not expm1).
    out<T>(c) = x.max(T(0)) + (x.min(T(0)).exp() - T(1));
    return Status::OK();
  }
};

// Runs out[i] = f(g[i], h[i]) over two same-shaped inputs. gcc vectorises the loop only without
// branches on floats, so the gradients below choose with a 0/1 factor, T(condition), instead.
template <typename T, typename F>
Status binary_loop(KernelContext& c, F f) {
  const T* __restrict g = c.input(0).data<T>();
  const T* __restrict h = c.input(1).data<T>();
  Tensor& t = c.allocate_output(0);
  T* __restrict o = t.data<T>();  // a fresh or recycled output buffer, never an input's
  const int64_t n = t.num_elements();
  for (int64_t i = 0; i < n; ++i) o[i] = f(g[i], h[i]);
  return Status::OK();
}

// d elu = 1 where the output is >= 0, else output + 1.
template <typename T>
struct EluGradKernel {
  static Status compute(KernelContext& c) {
    return binary_loop<T>(c, [](T g, T y) { return g + T(y < T(0)) * (g * y); });
  }
};

template <typename T>
struct SeluKernel {
  static Status compute(KernelContext& c) {
    const auto x = in<T>(c, 0);
    const T scale(kSeluScale), scale_alpha(kSeluScale * kSeluAlpha);
    out<T>(c) = scale * x.max(T(0)) + scale_alpha * (x.min(T(0)).exp() - T(1));
    return Status::OK();
  }
};

template <typename T>
struct SeluGradKernel {
  static Status compute(KernelContext& c) {
    const T scale(kSeluScale), scale_alpha(kSeluScale * kSeluAlpha);
    return binary_loop<T>(c, [=](T g, T y) {
      const T negative = T(y < T(0));
      return negative * (g * (y + scale_alpha)) + (T(1) - negative) * (g * scale);
    });
    return Status::OK();
  }
};

template <typename T>
struct Relu6Kernel {
  static Status compute(KernelContext& c) {
    out<T>(c) = in<T>(c, 0).max(T(0)).min(T(6));
    return Status::OK();
  }
};

// The gradient passes where 0 < features < 6.
template <typename T>
struct Relu6GradKernel {
  static Status compute(KernelContext& c) {
    return binary_loop<T>(c, [](T g, T f) { return f > T(0) && f < T(6) ? g : T(0); });
  }
};

template <typename T>
struct LeakyReluKernel {
  static Status compute(KernelContext& c) {
    const T alpha = static_cast<T>(c.attrs.get_float("alpha", 0.2));
    const auto x = in<T>(c, 0);
    out<T>(c) = x.max(T(0)) + alpha * x.min(T(0));  // x where x > 0, else alpha * x
    return Status::OK();
  }
};

template <typename T>
struct LeakyReluGradKernel {
  static Status compute(KernelContext& c) {
    const T alpha = static_cast<T>(c.attrs.get_float("alpha", 0.2));
    return binary_loop<T>(c, [=](T g, T f) {
      const T kept = f > T(0) ? g : T(0);  // g or 0: a choice gcc does vectorise
      return kept + (g - kept) * alpha;
    });
  }
};

// log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)): no overflow, and exp(x) itself far below 0.
template <typename T>
struct SoftplusKernel {
  static Status compute(KernelContext& c) {
    const auto x = in<T>(c, 0);
    out<T>(c) = x.max(T(0)) + (-x.abs()).exp().log1p();
    return Status::OK();
  }
};

// d softplus = sigmoid(features).
template <typename T>
struct SoftplusGradKernel {
  static Status compute(KernelContext& c) {
    const auto g = in<T>(c, 0), f = in<T>(c, 1);
    out<T>(c) = g / ((-f).exp() + T(1));  // g * sigmoid(f)
    return Status::OK();
  }
};

template <typename T>
struct SoftsignKernel {
  static Status compute(KernelContext& c) {
    const auto x = in<T>(c, 0);
    out<T>(c) = x / (x.abs() + T(1));
    return Status::OK();
  }
};

template <typename T>
struct SoftsignGradKernel {
  static Status compute(KernelContext& c) {
    const auto g = in<T>(c, 0), f = in<T>(c, 1);
    out<T>(c) = g / (f.abs() + T(1)).square();
    return Status::OK();
  }
};

// sum(t^2) / 2.
template <typename T>
struct L2LossKernel {
  static Status compute(KernelContext& c) {
    const auto t = in<T>(c, 0);
    c.allocate_output(0).data<T>()[0] = t.square().sum() / T(2);
    return Status::OK();
  }
};

using Floats = TypeList<float, double>;

}  // namespace

void register_nn_activation_kernels(OpRegistry& reg) {
  register_kernels<EluKernel>(reg, "Elu", Floats{});
  register_kernels<EluGradKernel>(reg, "EluGrad", Floats{});
  register_kernels<SeluKernel>(reg, "Selu", Floats{});
  register_kernels<SeluGradKernel>(reg, "SeluGrad", Floats{});
  register_kernels<Relu6Kernel>(reg, "Relu6", NumericTypes{});
  register_kernels<Relu6GradKernel>(reg, "Relu6Grad", NumericTypes{});
  register_kernels<LeakyReluKernel>(reg, "LeakyRelu", Floats{});
  register_kernels<LeakyReluGradKernel>(reg, "LeakyReluGrad", Floats{});
  register_kernels<SoftplusKernel>(reg, "Softplus", Floats{});
  register_kernels<SoftplusGradKernel>(reg, "SoftplusGrad", Floats{});
  register_kernels<SoftsignKernel>(reg, "Softsign", Floats{});
  register_kernels<SoftsignGradKernel>(reg, "SoftsignGrad", Floats{});
  register_kernels<L2LossKernel>(reg, "L2Loss", Floats{});
}

}  // namespace graphfn
