// Binary element-wise kernels: one template (broadcast_binary_loop) x functors x dtypes.
#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

template <typename F>
struct Binary {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      using K = functors::KernelTypeOf<F, T>;  // int32's Add runs uint32's loop
      using Out = decltype(F::apply(std::declval<K>(), std::declval<K>()));
      broadcast_binary_loop<K, Out>(c.input(0), c.input(1), c.allocate_output(0), functors::Call<F, K>{});
      return Status::OK();
    }
  };
};

// Integer FloorDiv/FloorMod/Pow reject bad divisors/exponents up front, as TF does.
template <typename T>
Status check_integer_divisor(const Tensor& y) {
  if constexpr (std::is_integral_v<T>) {
    const T* p = y.data<T>();
    for (int64_t i = 0; i < y.num_elements(); ++i) {
      if (p[i] == 0) return errors::InvalidArgument("Integer division by zero");
    }
  }
  return Status::OK();
}

template <typename F>
struct IntegerDivision {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      GRAPHFN_RETURN_IF_ERROR(check_integer_divisor<T>(c.input(1)));
      return Binary<F>::template Kernel<T>::compute(c);
    }
  };
};

template <typename T>
struct PowKernel {
  static Status compute(KernelContext& c) {
    if constexpr (std::is_integral_v<T>) {
      const T* p = c.input(1).template data<T>();
      for (int64_t i = 0; i < c.input(1).num_elements(); ++i) {
        if (p[i] < 0) return errors::InvalidArgument("Integers to negative integer powers are not allowed");
      }
    }
    return Binary<functors::Pow>::Kernel<T>::compute(c);
  }
};

template <typename T>
using AddKernel = Binary<functors::Add>::Kernel<T>;
template <typename T>
using SubKernel = Binary<functors::Sub>::Kernel<T>;
template <typename T>
using MulKernel = Binary<functors::Mul>::Kernel<T>;
template <typename T>
using RealDivKernel = Binary<functors::RealDiv>::Kernel<T>;
template <typename T>
using FloorDivKernel = IntegerDivision<functors::FloorDiv>::Kernel<T>;
template <typename T>
using FloorModKernel = IntegerDivision<functors::FloorMod>::Kernel<T>;
template <typename T>
using MaximumKernel = Binary<functors::Maximum>::Kernel<T>;
template <typename T>
using MinimumKernel = Binary<functors::Minimum>::Kernel<T>;
template <typename T>
using LessKernel = Binary<functors::Less>::Kernel<T>;
template <typename T>
using LessEqualKernel = Binary<functors::LessEqual>::Kernel<T>;
template <typename T>
using GreaterKernel = Binary<functors::Greater>::Kernel<T>;
template <typename T>
using GreaterEqualKernel = Binary<functors::GreaterEqual>::Kernel<T>;
template <typename T>
using EqualKernel = Binary<functors::Equal>::Kernel<T>;
template <typename T>
using NotEqualKernel = Binary<functors::NotEqual>::Kernel<T>;

template <typename T>
using BitwiseAndKernel = Binary<functors::BitwiseAnd>::Kernel<T>;
template <typename T>
using BitwiseOrKernel = Binary<functors::BitwiseOr>::Kernel<T>;
template <typename T>
using BitwiseXorKernel = Binary<functors::BitwiseXor>::Kernel<T>;

template <typename F>
Status logical_kernel(KernelContext& c) {
  broadcast_binary_loop<bool, bool>(c.input(0), c.input(1), c.allocate_output(0), functors::Call<F, bool>{});
  return Status::OK();
}

}  // namespace

void register_cwise_binary_kernels(OpRegistry& reg) {
  register_kernels<AddKernel>(reg, "AddV2", NumericTypes{});
  register_kernels<AddKernel>(reg, "Add", TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, std::string>{});
  register_kernels<SubKernel>(reg, "Sub", NumericTypes{});
  register_kernels<MulKernel>(reg, "Mul", NumericTypes{});
  register_kernels<RealDivKernel>(reg, "RealDiv", FloatTypes{});
  register_kernels<FloorDivKernel>(reg, "FloorDiv", NumericTypes{});
  register_kernels<FloorModKernel>(reg, "FloorMod", NumericTypes{});
  register_kernels<PowKernel>(reg, "Pow", SignedNumericTypes{});
  register_kernels<MaximumKernel>(reg, "Maximum", NumericTypes{});
  register_kernels<MinimumKernel>(reg, "Minimum", NumericTypes{});
  register_kernels<LessKernel>(reg, "Less", NumericTypes{});
  register_kernels<LessEqualKernel>(reg, "LessEqual", NumericTypes{});
  register_kernels<GreaterKernel>(reg, "Greater", NumericTypes{});
  register_kernels<GreaterEqualKernel>(reg, "GreaterEqual", NumericTypes{});
  register_kernels<EqualKernel>(reg, "Equal", AllTypes{});
  register_kernels<NotEqualKernel>(reg, "NotEqual", AllTypes{});
  register_kernels<BitwiseAndKernel>(reg, "BitwiseAnd", IntTypes{});
  register_kernels<BitwiseOrKernel>(reg, "BitwiseOr", IntTypes{});
  register_kernels<BitwiseXorKernel>(reg, "BitwiseXor", IntTypes{});
  reg.set_kernel("LogicalAnd", DType::kInvalid, &logical_kernel<functors::LogicalAnd>);
  reg.set_kernel("LogicalOr", DType::kInvalid, &logical_kernel<functors::LogicalOr>);
}

}  // namespace graphfn
