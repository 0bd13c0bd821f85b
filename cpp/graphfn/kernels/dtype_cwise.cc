// The binary element-wise kernels (arithmetic, comparisons, bitwise), ZerosLike, OnesLike and
// AddN for float16, bfloat16, complex64/128 and uint16/32/64, registered only where TF 2.21
// registers a CPU kernel.
// float16/bfloat16 compute each element in float and round the result, as TF's Eigen does.
#include <Eigen/Core>
#include <complex>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduced_precision.h"

namespace graphfn {
namespace {



// Complex powers: the functors' integer-power loop does not apply.
struct ComplexAwarePow {
  template <typename T> static T apply(T a, T b) {
    if constexpr (IsComplex<T>::value) return std::pow(a, b); else return functors::Pow::apply(a, b);
  }
};

template <typename F>
struct ComputedBinary {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      using C = ComputeType<T>;
      using Result = decltype(F::apply(std::declval<C>(), std::declval<C>()));
      using Out = std::conditional_t<std::is_same_v<Result, bool>, bool, T>;
      if constexpr (std::is_integral_v<T> &&
                    (std::is_same_v<F, functors::FloorDiv> || std::is_same_v<F, functors::FloorMod>)) {
        const T* divisor = c.input(1).template data<T>();
        for (int64_t i = 0; i < c.input(1).num_elements(); ++i) {
          if (divisor[i] == 0) return errors::InvalidArgument("Integer division by zero");
        }
      }
      if constexpr (std::is_integral_v<T> && functors::kSignBlind<F>) {
        // The instantiation cwise_binary.cc's signed kernels run (uint32 for int32 and uint32).
        using K = functors::KernelTypeOf<F, T>;
        broadcast_binary_loop<K, Out>(c.input(0), c.input(1), c.allocate_output(0), functors::Call<F, K>{});
      } else {
        broadcast_binary_loop<T, Out>(c.input(0), c.input(1), c.allocate_output(0), [](const T& a, const T& b) {
          return static_cast<Out>(F::apply(static_cast<C>(a), static_cast<C>(b)));
        });
      }
      return Status::OK();
    }
  };
};

template <typename T>
struct ZerosLikeWideKernel {
  static Status compute(KernelContext& c) {
    Tensor& out = c.allocate_output(0);
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.num_elements(); ++i) p[i] = T(0);
    return Status::OK();
  }
};

template <typename T>
struct OnesLikeWideKernel {
  static Status compute(KernelContext& c) {
    Tensor& out = c.allocate_output(0);
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.num_elements(); ++i) p[i] = T(1);
    return Status::OK();
  }
};

// AddN: the inputs summed left to right, rounding after each addition (as a chain of AddV2).
template <typename T>
struct AddNWideKernel {
  static Status compute(KernelContext& c) {
    using C = ComputeType<T>;
    Tensor& out = c.allocate_output(0);
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.num_elements(); ++i) {
      C sum = static_cast<C>(c.input(0).data<T>()[i]);
      for (int k = 1; k < c.num_inputs; ++k) {
        sum = static_cast<C>(static_cast<T>(functors::wrap_add(sum, static_cast<C>(c.input(k).data<T>()[i]))));
      }
      p[i] = static_cast<T>(sum);
    }
    return Status::OK();
  }
};

template <typename F, typename Types>
void register_binary(OpRegistry& reg, const char* op, Types types) {
  register_kernels<ComputedBinary<F>::template Kernel>(reg, op, types);
}

}  // namespace

void register_dtype_cwise_kernels(OpRegistry& reg) {
  using HalvesComplex = Concat<HalfTypes, ComplexTypes>;
  using HalvesUnsigned = Concat<HalfTypes, WideUnsignedTypes>;
  using AllNew = Concat<HalfTypes, ComplexTypes, WideUnsignedTypes>;
  register_binary<functors::Add>(reg, "AddV2", AllNew{});
  register_binary<functors::Add>(reg, "Add", HalvesComplex{});
  register_binary<functors::Sub>(reg, "Sub", AllNew{});
  register_binary<functors::Mul>(reg, "Mul", AllNew{});
  register_binary<functors::RealDiv>(reg, "RealDiv", HalvesComplex{});
  register_binary<functors::FloorDiv>(reg, "FloorDiv", HalvesUnsigned{});
  register_binary<functors::FloorMod>(reg, "FloorMod", HalvesUnsigned{});
  register_binary<ComplexAwarePow>(reg, "Pow", HalvesComplex{});
  register_binary<functors::Maximum>(reg, "Maximum", HalvesUnsigned{});
  register_binary<functors::Minimum>(reg, "Minimum", HalvesUnsigned{});
  register_binary<functors::Less>(reg, "Less", HalvesUnsigned{});
  register_binary<functors::LessEqual>(reg, "LessEqual", HalvesUnsigned{});
  register_binary<functors::Greater>(reg, "Greater", HalvesUnsigned{});
  register_binary<functors::GreaterEqual>(reg, "GreaterEqual", HalvesUnsigned{});
  register_binary<functors::Equal>(reg, "Equal", AllNew{});
  register_binary<functors::NotEqual>(reg, "NotEqual", AllNew{});
  register_binary<functors::BitwiseAnd>(reg, "BitwiseAnd", WideUnsignedTypes{});
  register_binary<functors::BitwiseOr>(reg, "BitwiseOr", WideUnsignedTypes{});
  register_binary<functors::BitwiseXor>(reg, "BitwiseXor", WideUnsignedTypes{});
  register_kernels<ZerosLikeWideKernel>(reg, "ZerosLike", AllNew{});
  register_kernels<OnesLikeWideKernel>(reg, "OnesLike", AllNew{});
  register_kernels<AddNWideKernel>(reg, "AddN", AllNew{});
}

}  // namespace graphfn
