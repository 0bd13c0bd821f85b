// Kernels of ops/legacy_math_ops.cc, and TruncateDiv on the dtypes math_cwise.def leaves out.
// Where an older op computes what a newer one does, it reuses that op's kernels: Div on floats
// and complex is RealDiv, Inv is Reciprocal (registration runs after theirs, builtin_ops.cc).
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduced_precision.h"

namespace graphfn {
namespace {

// What TF's integer Div/Mod (InvalidArgument) and TruncateDiv (Internal) say for a zero divisor.
enum class ZeroDivisor { kInvalidArgument, kInternal };

template <typename T>
Status check_divisor(const Tensor& divisor, ZeroDivisor kind) {
  const T* p = divisor.data<T>();
  if (!std::any_of(p, p + divisor.num_elements(), [](T v) { return v == T(0); })) return Status::OK();
  if (kind == ZeroDivisor::kInternal) {
    return errors::Internal("Unexpected error in binary operator (only integer div and mod should have errors)");
  }
  return errors::InvalidArgument("Integer division by zero");
}

// C++'s integer / and % truncate; MIN / -1 wraps to MIN and MIN % -1 is 0, as in TF.
template <typename T>
T integer_truncating_div(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return static_cast<T>(U(0) - static_cast<U>(a));
  }
  return static_cast<T>(a / b);
}

template <typename T>
T integer_truncating_mod(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return T(0);
  }
  return static_cast<T>(a % b);
}

template <ZeroDivisor kKind>
struct IntegerDiv {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      GRAPHFN_RETURN_IF_ERROR(check_divisor<T>(c.input(1), kKind));
      broadcast_binary_loop<T, T>(c.input(0), c.input(1), c.allocate_output(0),
                                  [](const T& a, const T& b) { return integer_truncating_div(a, b); });
      return Status::OK();
    }
  };
};

// Mod: C's % for integers, fmod for floats.
template <typename T>
struct ModKernel {
  static Status compute(KernelContext& c) {
    if constexpr (std::is_integral_v<T>) {
      GRAPHFN_RETURN_IF_ERROR(check_divisor<T>(c.input(1), ZeroDivisor::kInvalidArgument));
      broadcast_binary_loop<T, T>(c.input(0), c.input(1), c.allocate_output(0),
                                  [](const T& a, const T& b) { return integer_truncating_mod(a, b); });
    } else {
      broadcast_binary_loop<T, T>(c.input(0), c.input(1), c.allocate_output(0),
                                  [](const T& a, const T& b) { return std::fmod(a, b); });
    }
    return Status::OK();
  }
};

// float16/bfloat16 TruncateDiv: the quotient is rounded to T first (TF divides in T), then
// truncated.
template <typename T>
struct ReducedTruncateDivKernel {
  static Status compute(KernelContext& c) {
    broadcast_binary_loop<T, T>(c.input(0), c.input(1), c.allocate_output(0), [](const T& a, const T& b) {
      const float quotient = static_cast<float>(static_cast<T>(static_cast<float>(a) / static_cast<float>(b)));
      return static_cast<T>(std::trunc(quotient));
    });
    return Status::OK();
  }
};

// Bucketize: the number of boundaries <= x, i.e. the index of the first boundary above x
// (std::upper_bound). x is compared with each float boundary as C++ compares them (integers
// convert to float, doubles compare exactly); NaN lands past the last boundary.
std::vector<float> bucket_boundaries(const KernelContext& c, Status* status) {
  std::vector<float> boundaries;
  const Tensor* t = c.attrs.get_tensor("boundaries");
  if (!t) return boundaries;
  visit_dtype(t->dtype(), TypeList<float, double, int32_t, int64_t>{}, [&](auto tag) {
    using E = decltype(tag);
    const E* p = t->data<E>();
    for (int64_t i = 0; i < t->num_elements(); ++i) boundaries.push_back(static_cast<float>(p[i]));
  });
  if (t->num_elements() != 0 && boundaries.empty()) {
    *status = errors::InvalidArgument("Expected float for argument 'boundaries' not ", dtype_tf_string(t->dtype()));
    return boundaries;
  }
  if (!std::is_sorted(boundaries.begin(), boundaries.end())) {
    *status = errors::InvalidArgument("Expected sorted boundaries");
  }
  return boundaries;
}

template <typename T>
struct BucketizeKernel {
  static Status compute(KernelContext& c) {
    Status status;
    const std::vector<float> boundaries = bucket_boundaries(c, &status);
    GRAPHFN_RETURN_IF_ERROR(status);
    const T* in = c.input(0).data<T>();
    Tensor& out = c.allocate_output(0);
    int32_t* buckets = out.data<int32_t>();
    for (int64_t i = 0; i < out.num_elements(); ++i) {
      const T x = in[i];
      const auto above = std::upper_bound(boundaries.begin(), boundaries.end(), x,
                                          [](const T& v, float b) { return v < b; });
      buckets[i] = static_cast<int32_t>(above - boundaries.begin());
    }
    return Status::OK();
  }
};

// Copies `from`'s kernel for each dtype it has to `to`.
void share_kernels(OpRegistry& reg, const char* from, const char* to, std::initializer_list<DType> dtypes) {
  const OpDef* source = reg.find(from);
  for (DType dt : dtypes) {
    if (KernelFn fn = source->kernels[static_cast<int>(dt)]) reg.set_kernel(to, dt, fn);
  }
}

using SignedInts = TypeList<int8_t, int16_t, int32_t, int64_t>;
using UnsignedInts = TypeList<uint8_t, uint16_t, uint32_t, uint64_t>;

}  // namespace

void register_legacy_math_kernels(OpRegistry& reg) {
  using InvalidArgumentDiv = IntegerDiv<ZeroDivisor::kInvalidArgument>;
  using InternalDiv = IntegerDiv<ZeroDivisor::kInternal>;
  register_kernels<InvalidArgumentDiv::Kernel>(reg, "Div", Concat<SignedInts, UnsignedInts>{});
  share_kernels(reg, "RealDiv", "Div", {DType::kHalf, DType::kBFloat16, DType::kFloat32, DType::kFloat64,
                                        DType::kComplex64, DType::kComplex128});
  register_kernels<ModKernel>(reg, "Mod", TypeList<int32_t, int64_t, float, double>{});
  share_kernels(reg, "Reciprocal", "Inv", {DType::kHalf, DType::kBFloat16, DType::kFloat32, DType::kFloat64,
                                           DType::kComplex64, DType::kComplex128});
  register_kernels<BucketizeKernel>(reg, "Bucketize", TypeList<int32_t, int64_t, float, double>{});
  register_kernels<InternalDiv::Kernel>(reg, "TruncateDiv", TypeList<uint16_t, uint32_t, uint64_t>{});
  register_kernels<ReducedTruncateDivKernel>(reg, "TruncateDiv", HalfTypes{});
}

}  // namespace graphfn
