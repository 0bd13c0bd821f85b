// Kernels of ops/bitwise_shift_ops.cc. TF clamps the shift count to [0, bits - 1] (a count of
// 40 on int32 shifts by 31, a negative one by 0), shifts left in the unsigned representation
// (bits shifted out are lost, the sign bit is not kept) and right arithmetically for signed
// types. A generic loop per dtype: these ops are rare, and eight small instantiations suffice.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

template <typename T>
int clamped_shift_count(T y) {
  constexpr int kBits = 8 * sizeof(T);
  if constexpr (std::is_signed_v<T>) {
    if (y < 0) return 0;
  }
  return static_cast<int>(std::min<uint64_t>(static_cast<uint64_t>(y), kBits - 1));
}

template <typename T>
struct LeftShiftKernel {
  static Status compute(KernelContext& c) {
    using U = std::make_unsigned_t<T>;
    broadcast_binary_loop<T, T>(c.input(0), c.input(1), c.allocate_output(0), [](const T& x, const T& y) {
      return static_cast<T>(static_cast<U>(static_cast<U>(x) << clamped_shift_count(y)));
    });
    return Status::OK();
  }
};

template <typename T>
struct RightShiftKernel {
  static Status compute(KernelContext& c) {
    broadcast_binary_loop<T, T>(c.input(0), c.input(1), c.allocate_output(0), [](const T& x, const T& y) {
      return static_cast<T>(x >> clamped_shift_count(y));  // arithmetic for signed T (C++20, and GCC/Clang before)
    });
    return Status::OK();
  }
};

template <typename T>
struct PopulationCountKernel {
  static Status compute(KernelContext& c) {
    using U = std::make_unsigned_t<T>;
    const T* in = c.input(0).data<T>();
    Tensor& out = c.allocate_output(0);
    uint8_t* counts = out.data<uint8_t>();
    for (int64_t i = 0; i < out.num_elements(); ++i) {
      counts[i] = static_cast<uint8_t>(__builtin_popcountll(static_cast<U>(in[i])));
    }
    return Status::OK();
  }
};

using BitwiseShiftTypes = TypeList<int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t>;

}  // namespace

void register_bitwise_shift_kernels(OpRegistry& reg) {
  register_kernels<LeftShiftKernel>(reg, "LeftShift", BitwiseShiftTypes{});
  register_kernels<RightShiftKernel>(reg, "RightShift", BitwiseShiftTypes{});
  register_kernels<PopulationCountKernel>(reg, "PopulationCount", BitwiseShiftTypes{});
}

}  // namespace graphfn
