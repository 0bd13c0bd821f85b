// Scalar functors for element-wise kernels: one line of math each. Integer arithmetic wraps
// (two's complement, as TF's kernels do) instead of invoking C++ signed-overflow UB.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace graphfn {
namespace functors {

template <typename T, bool = std::is_integral_v<T> && !std::is_same_v<T, bool>>
struct WideOf { using type = T; };
// Unsigned, and at least as wide as int: uint16 * uint16 would promote to (signed) int and
// could overflow.
template <typename T>
struct WideOf<T, true> {
  using type = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
};
template <typename T>
using Wide = typename WideOf<T>::type;
template <typename T> T wrap_add(T a, T b) { return static_cast<T>(Wide<T>(a) + Wide<T>(b)); }
template <typename T> T wrap_sub(T a, T b) { return static_cast<T>(Wide<T>(a) - Wide<T>(b)); }
template <typename T> T wrap_mul(T a, T b) { return static_cast<T>(Wide<T>(a) * Wide<T>(b)); }
template <typename T> T wrap_neg(T a) { return static_cast<T>(Wide<T>(0) - Wide<T>(a)); }

struct Add { template <typename T> static T apply(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, std::string>) return a + b; else return wrap_add(a, b); } };
struct Sub { template <typename T> static T apply(T a, T b) { return wrap_sub(a, b); } };
struct Mul { template <typename T> static T apply(T a, T b) { return wrap_mul(a, b); } };
struct RealDiv { template <typename T> static T apply(T a, T b) { return a / b; } };

// Floor division and modulo (Python semantics). Integer division by zero is rejected before
// the loop runs; INT_MIN // -1 wraps like TF.
struct FloorDiv {
  template <typename T> static T apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::floor(a / b);
    } else {
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return wrap_neg(a);
      }
      T q = static_cast<T>(a / b);
      if constexpr (std::is_signed_v<T>) {
        if ((a % b != 0) && ((a < 0) != (b < 0))) q = static_cast<T>(q - 1);
      }
      return q;
    }
  }
};
struct FloorMod {
  template <typename T> static T apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      T r = std::fmod(a, b);
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    } else {
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return 0;
      }
      T r = static_cast<T>(a % b);
      if constexpr (std::is_signed_v<T>) {
        if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
      }
      return r;
    }
  }
};
// Integer power by squaring (negative exponents are rejected before the loop runs).
struct Pow {
  template <typename T> static T apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::pow(a, b);
    } else {
      T result = 1, base = a;
      for (auto e = b; e > 0; e = static_cast<T>(e / 2)) {
        if (e & 1) result = wrap_mul(result, base);
        base = wrap_mul(base, base);
      }
      return result;
    }
  }
};
// NaN-propagating, like TF's Maximum/Minimum.
struct Maximum { template <typename T> static T apply(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) { if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN(); }
  return a > b ? a : b; } };
struct Minimum { template <typename T> static T apply(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) { if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN(); }
  return a < b ? a : b; } };

struct Less { template <typename T> static bool apply(const T& a, const T& b) { return a < b; } };
struct LessEqual { template <typename T> static bool apply(const T& a, const T& b) { return a <= b; } };
struct Greater { template <typename T> static bool apply(const T& a, const T& b) { return a > b; } };
struct GreaterEqual { template <typename T> static bool apply(const T& a, const T& b) { return a >= b; } };
struct Equal { template <typename T> static bool apply(const T& a, const T& b) { return a == b; } };
struct NotEqual { template <typename T> static bool apply(const T& a, const T& b) { return a != b; } };
struct LogicalAnd { static bool apply(bool a, bool b) { return a && b; } };
struct BitwiseAnd { template <typename T> static T apply(T a, T b) { return static_cast<T>(a & b); } };
struct BitwiseOr { template <typename T> static T apply(T a, T b) { return static_cast<T>(a | b); } };
struct BitwiseXor { template <typename T> static T apply(T a, T b) { return static_cast<T>(a ^ b); } };
struct LogicalOr { static bool apply(bool a, bool b) { return a || b; } };

// Ops whose result bits do not depend on whether integers are signed: wrap-around add, subtract
// and multiply, the bitwise ops, equality. Their kernels for int32 and uint32 (int8, uint8 and
// bool; ...) run one instantiation, on the unsigned type of the same size (SameBits).
template <typename F> inline constexpr bool kSignBlind = false;
template <> inline constexpr bool kSignBlind<Add> = true;
template <> inline constexpr bool kSignBlind<Sub> = true;
template <> inline constexpr bool kSignBlind<Mul> = true;
template <> inline constexpr bool kSignBlind<BitwiseAnd> = true;
template <> inline constexpr bool kSignBlind<BitwiseOr> = true;
template <> inline constexpr bool kSignBlind<BitwiseXor> = true;
template <> inline constexpr bool kSignBlind<Equal> = true;
template <> inline constexpr bool kSignBlind<NotEqual> = true;

template <typename T, bool = std::is_integral_v<T>>
struct SameBitsOf { using type = T; };
template <typename T>
struct SameBitsOf<T, true> { using type = std::make_unsigned_t<T>; };
template <>
struct SameBitsOf<bool, true> { using type = uint8_t; };  // bool is stored as a 0 or 1 byte
// The type a kernel of F over T computes in: T's unsigned twin where F is sign-blind, else T.
template <typename F, typename T>
using KernelTypeOf = std::conditional_t<kSignBlind<F>, typename SameBitsOf<T>::type, T>;

// F::apply as a named callable: kernels of several files that call F on the same type share
// one instantiation of the broadcasting loop (kernels/broadcast.h).
template <typename F, typename T>
struct Call {
  auto operator()(const T& a, const T& b) const { return F::apply(a, b); }
};

}  // namespace functors
}  // namespace graphfn
