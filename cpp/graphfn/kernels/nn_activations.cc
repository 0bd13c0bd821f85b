// Kernels of the fused activations (Elu, Selu, Relu6, LeakyRelu, Softplus, Softsign), their
// gradient ops, and L2Loss. Float kernels are Eigen array expressions (vectorised); Relu6 also
// takes integers, through the same expressions on integer arrays.
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
    out<T>(c) = (x < T(0)).select(x.expm1(), x);
    return Status::OK();
  }
};

// d elu = 1 where the output is >= 0, else output + 1.
template <typename T>
struct EluGradKernel {
  static Status compute(KernelContext& c) {
    const auto g = in<T>(c, 0), y = in<T>(c, 1);
    out<T>(c) = (y < T(0)).select(g * (y + T(1)), g);
    return Status::OK();
  }
};

template <typename T>
struct SeluKernel {
  static Status compute(KernelContext& c) {
    const auto x = in<T>(c, 0);
    const T scale(kSeluScale), scale_alpha(kSeluScale * kSeluAlpha);
    out<T>(c) = (x < T(0)).select(scale_alpha * x.expm1(), scale * x);
    return Status::OK();
  }
};

template <typename T>
struct SeluGradKernel {
  static Status compute(KernelContext& c) {
    const auto g = in<T>(c, 0), y = in<T>(c, 1);
    const T scale(kSeluScale), scale_alpha(kSeluScale * kSeluAlpha);
    out<T>(c) = (y < T(0)).select(g * (y + scale_alpha), g * scale);
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
    const auto g = in<T>(c, 0), f = in<T>(c, 1);
    out<T>(c) = (f > T(0) && f < T(6)).select(g, T(0));
    return Status::OK();
  }
};

template <typename T>
struct LeakyReluKernel {
  static Status compute(KernelContext& c) {
    const T alpha = static_cast<T>(c.attrs.get_float("alpha", 0.2));
    const auto x = in<T>(c, 0);
    out<T>(c) = (x > T(0)).select(x, x * alpha);
    return Status::OK();
  }
};

template <typename T>
struct LeakyReluGradKernel {
  static Status compute(KernelContext& c) {
    const T alpha = static_cast<T>(c.attrs.get_float("alpha", 0.2));
    const auto g = in<T>(c, 0), f = in<T>(c, 1);
    out<T>(c) = (f > T(0)).select(g, g * alpha);
    return Status::OK();
  }
};

// log(1 + exp(x)), computed as TF's kernel does: x itself where exp(-x) is below the dtype's
// epsilon, exp(x) where exp(x) is, log1p(exp(x)) between.
template <typename T>
struct SoftplusKernel {
  static Status compute(KernelContext& c) {
    const T threshold = std::log(std::numeric_limits<T>::epsilon()) + T(2);
    const auto x = in<T>(c, 0);
    const auto e = x.exp();
    out<T>(c) = (x > -threshold).select(x, (x < threshold).select(e, e.log1p()));
    return Status::OK();
  }
};

// d softplus = sigmoid(features).
template <typename T>
struct SoftplusGradKernel {
  static Status compute(KernelContext& c) {
    const auto g = in<T>(c, 0), f = in<T>(c, 1);
    out<T>(c) = g / ((-f).exp() + T(1));
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
