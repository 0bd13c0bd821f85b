// Unary element-wise kernels: floats go through Eigen's vectorised array functions,
// integers through a plain loop over the functor's scalar form.
#include <Eigen/Core>

#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

template <typename F>
struct Unary {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      const Tensor& x = c.input(0);
      Tensor& y = c.allocate_output(0);
      const int64_t n = x.num_elements();
      if constexpr (std::is_floating_point_v<T>) {
        using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
        Eigen::Map<const Array> in(x.data<T>(), n);
        Eigen::Map<Array> out(y.data<T>(), n);
        out = F::array(in);
      } else {
        const T* in = x.data<T>();
        T* out = y.data<T>();
        for (int64_t i = 0; i < n; ++i) out[i] = F::scalar(in[i]);
      }
      return Status::OK();
    }
  };
};

#define GRAPHFN_UNARY(NAME) \
  template <typename T>     \
  using NAME##Kernel = Unary<functors::NAME>::Kernel<T>;
GRAPHFN_UNARY(Neg)
GRAPHFN_UNARY(Abs)
GRAPHFN_UNARY(Sign)
GRAPHFN_UNARY(Square)
GRAPHFN_UNARY(Relu)
GRAPHFN_UNARY(Sqrt)
GRAPHFN_UNARY(Exp)
GRAPHFN_UNARY(Log)
GRAPHFN_UNARY(Tanh)
GRAPHFN_UNARY(Sigmoid)
GRAPHFN_UNARY(Invert)
#undef GRAPHFN_UNARY

Status logical_not_kernel(KernelContext& c) {
  const bool* in = c.input(0).data<bool>();
  bool* out = c.allocate_output(0).data<bool>();
  for (int64_t i = 0; i < c.input(0).num_elements(); ++i) out[i] = !in[i];
  return Status::OK();
}

}  // namespace

void register_cwise_unary_kernels(OpRegistry& reg) {
  register_kernels<NegKernel>(reg, "Neg", SignedNumericTypes{});
  register_kernels<AbsKernel>(reg, "Abs", SignedNumericTypes{});
  register_kernels<SignKernel>(reg, "Sign", SignedNumericTypes{});
  register_kernels<SquareKernel>(reg, "Square", NumericTypes{});
  register_kernels<ReluKernel>(reg, "Relu", NumericTypes{});
  register_kernels<SqrtKernel>(reg, "Sqrt", FloatTypes{});
  register_kernels<ExpKernel>(reg, "Exp", FloatTypes{});
  register_kernels<LogKernel>(reg, "Log", FloatTypes{});
  register_kernels<TanhKernel>(reg, "Tanh", FloatTypes{});
  register_kernels<SigmoidKernel>(reg, "Sigmoid", FloatTypes{});
  register_kernels<InvertKernel>(reg, "Invert", IntTypes{});
  reg.set_kernel("LogicalNot", DType::kInvalid, &logical_not_kernel);
}

}  // namespace graphfn
