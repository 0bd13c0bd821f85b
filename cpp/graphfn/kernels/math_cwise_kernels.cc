// Kernels of the element-wise math ops of ops/math_cwise.def. Unary floats go through Eigen's
// vectorised array functions, other dtypes through a loop over the scalar form; binary ops are
// the broadcasting loop of broadcast.h over the scalar form.
#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>
#include <cmath>
#include <string_view>
#include <type_traits>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/float_math.h"
#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/parallel_loops.h"
#include "graphfn/kernels/reduced_precision.h"
#include "graphfn/kernels/vector_exp.h"

namespace graphfn {
namespace functors {

// C++'s / and % truncate; INT_MIN / -1 wraps and INT_MIN % -1 is 0, as in TF.
template <typename T>
T truncate_div(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::trunc(a / b);
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return wrap_neg(a);
    }
    return static_cast<T>(a / b);
  }
}
template <typename T>
T truncate_mod(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fmod(a, b);
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return 0;
    }
    return static_cast<T>(a % b);
  }
}

}  // namespace functors

namespace {

// ComputeType (reduced_precision.h): float16/bfloat16 kernels compute in float and round each result.

// Each kernel instantiates one loop over a shard of elements; the threading around it is
// compiled once per output type. Large tensors are split over the intra-op pool
// (kernels/parallel_loops.h); each shard runs the same loop on its own range.
using UnaryShardFn = void (*)(const void* x, void* y, int64_t begin, int64_t end);

template <typename Out>
GRAPHFN_SHARED_DRIVER void unary_in_shards(const void* x, Out* y, int64_t n, int64_t min_shard, UnaryShardFn shard) {
  parallel_elementwise(y, n, min_shard, [&](int64_t b, int64_t e) { shard(x, y, b, e); });
}

// The hand-vectorised float loop of an op (kernels/float_math.h), where there is one.
enum class FloatLoop { kNone, kExp, kTanh, kSigmoid };
constexpr FloatLoop float_loop_of(std::string_view op) {
#if GRAPHFN_HAVE_SIMD_FLOAT
  if (op == "Exp") return FloatLoop::kExp;
  if (op == "Tanh") return FloatLoop::kTanh;
  if (op == "Sigmoid") return FloatLoop::kSigmoid;
#endif
  (void)op;
  return FloatLoop::kNone;
}

// float and double: Eigen's vectorised array form, or the op's float loop. (Not inlined into
// reduced_float_shard: float16 and bfloat16 run float's copy.)
template <typename T, typename Out, typename Kernel>
__attribute__((noinline)) void array_shard(const void* x, void* y, int64_t b, int64_t e) {
  constexpr bool kFloats = std::is_same_v<T, float> && std::is_same_v<Out, float>;
  if constexpr (kFloats && Kernel::kFloatLoop == FloatLoop::kExp) {
    float_math::exp(static_cast<const float*>(x) + b, static_cast<float*>(y) + b, e - b);
  } else if constexpr (kFloats && Kernel::kFloatLoop == FloatLoop::kTanh) {
    float_math::tanh(static_cast<const float*>(x) + b, static_cast<float*>(y) + b, e - b);
  } else if constexpr (kFloats && Kernel::kFloatLoop == FloatLoop::kSigmoid) {
    float_math::sigmoid(static_cast<const float*>(x) + b, static_cast<float*>(y) + b, e - b);
  } else {
    Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> in(static_cast<const T*>(x) + b, e - b);
    Eigen::Map<Eigen::Array<Out, Eigen::Dynamic, 1>> out(static_cast<Out*>(y) + b, e - b);
    out = Kernel::array(in);
  }
}

// float16 and bfloat16: the shard converted to float, float's kernel on it (in an aligned buffer,
// as a whole: the same packets as float's own), each result rounded.
template <typename Stored, typename Out, typename FloatKernel>
void reduced_float_shard(const void* x, void* y, int64_t b, int64_t e) {
  using StoredOut = std::conditional_t<std::is_same_v<Out, bool>, bool, Stored>;
  const Eigen::Array<float, Eigen::Dynamic, 1> in =
      Eigen::Map<const Eigen::Array<Stored, Eigen::Dynamic, 1>>(static_cast<const Stored*>(x) + b, e - b)
          .template cast<float>();
  Eigen::Array<Out, Eigen::Dynamic, 1> result(e - b);
  array_shard<float, Out, FloatKernel>(in.data(), result.data(), 0, e - b);
  Eigen::Map<Eigen::Array<StoredOut, Eigen::Dynamic, 1>>(static_cast<StoredOut*>(y) + b, e - b) =
      result.template cast<StoredOut>();
}

// Integers and complex numbers: the scalar form, element by element.
template <typename T, typename Out, typename Kernel>
void scalar_shard(const void* x, void* y, int64_t b, int64_t e) {
  const T* in = static_cast<const T*>(x);
  Out* out = static_cast<Out*>(y);
  for (int64_t i = b; i < e; ++i) out[i] = Kernel::scalar(in[i]);
}

template <typename Stored, typename Out, template <typename> class Kernel>
Status run_unary(KernelContext& c) {
  const Tensor& x = c.input(0);
  Tensor& y = c.allocate_output(0);
  const int64_t n = x.num_elements();
  if constexpr (kReducedFloat<Stored>) {
    using StoredOut = std::conditional_t<std::is_same_v<Out, bool>, bool, Stored>;
    unary_in_shards(x.raw_data(), y.data<StoredOut>(), n, kCostlyElementsPerShard,
                    &reduced_float_shard<Stored, Out, Kernel<float>>);
  } else if constexpr (std::is_floating_point_v<Stored>) {
    unary_in_shards(x.raw_data(), y.data<Out>(), n, kCostlyElementsPerShard, &array_shard<Stored, Out, Kernel<Stored>>);
  } else {
    unary_in_shards(x.raw_data(), y.data<Out>(), n, kCheapElementsPerShard, &scalar_shard<Stored, Out, Kernel<Stored>>);
  }
  return Status::OK();
}

constexpr bool integer_divisor_nonzero = true;
constexpr bool no_check = false;

// TF's integer TruncateDiv/TruncateMod refuse a zero divisor with this (internal) error.
template <typename T>
Status check_integer_divisor_nonzero(const Tensor& divisor) {
  const T* p = divisor.data<T>();
  for (int64_t i = 0; i < divisor.num_elements(); ++i) {
    if (p[i] == 0) return errors::Internal("Unexpected error in binary operator (only integer div and mod should have errors)");
  }
  return Status::OK();
}

#define GRAPHFN_UNARY(NAME, TYPES, OUT, KTYPES, ARRAY, SCALAR, GRAD)                        \
  template <typename Stored>                                                               \
  struct NAME##CwiseKernel {                                                               \
    using T = ComputeType<Stored>;                                                         \
    static constexpr FloatLoop kFloatLoop = float_loop_of(#NAME);                          \
    template <typename X>                                                                  \
    static auto array(const X& x) { return ARRAY; }                                        \
    static OUT scalar(T x) { return SCALAR; }                                              \
    static Status compute(KernelContext& c) { return run_unary<Stored, OUT, NAME##CwiseKernel>(c); } \
  };
#define GRAPHFN_BINARY(NAME, A, B, TYPES, ORDER, KTYPES, SCALAR, CHECK, GRAD)                      \
  template <typename Stored>                                                               \
  struct NAME##CwiseKernel {                                                               \
    static Status compute(KernelContext& c) {                                              \
      using T = ComputeType<Stored>;                                                       \
      if constexpr (CHECK && std::is_integral_v<T>) {                                      \
        GRAPHFN_RETURN_IF_ERROR(check_integer_divisor_nonzero<T>(c.input(1)));              \
      }                                                                                    \
      broadcast_binary_loop<Stored, Stored>(                                               \
          c.input(0), c.input(1), c.allocate_output(0), [](Stored a0, Stored b0) -> Stored { \
            const T a = static_cast<T>(a0), b = static_cast<T>(b0);                        \
            return static_cast<Stored>(SCALAR);                                            \
          });                                                                              \
      return Status::OK();                                                                 \
    }                                                                                      \
  };
#include "graphfn/ops/math_cwise.def"
#undef GRAPHFN_UNARY
#undef GRAPHFN_BINARY

}  // namespace

void register_math_cwise_kernels(OpRegistry& reg) {
#define GRAPHFN_UNARY(NAME, TYPES, OUT, KTYPES, ARRAY, SCALAR, GRAD) \
  register_kernels<NAME##CwiseKernel>(reg, #NAME, KTYPES{});
#define GRAPHFN_BINARY(NAME, A, B, TYPES, ORDER, KTYPES, SCALAR, CHECK, GRAD) \
  register_kernels<NAME##CwiseKernel>(reg, #NAME, KTYPES{});
#include "graphfn/ops/math_cwise.def"
#undef GRAPHFN_UNARY
#undef GRAPHFN_BINARY
}

}  // namespace graphfn
