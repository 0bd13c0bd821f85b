// DType: the element types a Tensor can hold. Enum values are TensorFlow's DataType numbers,
// so saved graphs and error messages can use TF's ids and names.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>

// The reduced-precision element types are Eigen's (as in TF, so arithmetic rounds as TF's does).
// Declared here so that this header stays light; kernels that compute with them include Eigen.
namespace Eigen {
struct half;
struct bfloat16;
}  // namespace Eigen

namespace graphfn {

enum class DType : uint8_t {
  kInvalid = 0,
  kFloat32 = 1,
  kFloat64 = 2,
  kInt32 = 3,
  kUInt8 = 4,
  kInt16 = 5,
  kInt8 = 6,
  kString = 7,
  kComplex64 = 8,
  kInt64 = 9,
  kBool = 10,
  kBFloat16 = 14,
  kUInt16 = 17,
  kComplex128 = 18,
  kHalf = 19,
  kResource = 20,  // handles to state such as variables (core/resource.h)
  kUInt32 = 22,
  kUInt64 = 23,
};
constexpr int kNumDTypes = 24;  // one past the largest enum value

const char* dtype_name(DType dt);     // "float32", "int32", ... (TF's Python names)
const char* dtype_tf_enum(DType dt);  // "DT_FLOAT", "DT_INT32", ... (TF's DataType names)
const char* dtype_tf_string(DType dt); // "float", "double", "int32", ... (TF's DataTypeString)
size_t dtype_size(DType dt);          // bytes per element; sizeof(std::string) for kString
bool dtype_from_name(const std::string& name, DType* out);
// The value of a float16 (kHalf) or bfloat16 element given its bits, exactly, without Eigen.
float half_bits_to_float(DType dt, uint16_t bits);
inline bool is_floating(DType dt) {
  return dt == DType::kFloat32 || dt == DType::kFloat64 || dt == DType::kHalf || dt == DType::kBFloat16;
}
inline bool is_complex(DType dt) { return dt == DType::kComplex64 || dt == DType::kComplex128; }
inline bool is_unsigned(DType dt) {
  return dt == DType::kUInt8 || dt == DType::kUInt16 || dt == DType::kUInt32 || dt == DType::kUInt64;
}
inline bool is_integer(DType dt) {
  return dt == DType::kInt8 || dt == DType::kInt16 || dt == DType::kInt32 || dt == DType::kInt64 ||
         is_unsigned(dt);
}
inline bool is_numeric(DType dt) { return is_floating(dt) || is_integer(dt) || is_complex(dt); }
// The real dtype of a complex one (complex64 -> float32); other dtypes are their own.
inline DType real_dtype(DType dt) {
  return dt == DType::kComplex64 ? DType::kFloat32 : dt == DType::kComplex128 ? DType::kFloat64 : dt;
}
// The dtypes of values users compute with (not kResource).
inline bool is_valid(DType dt) {
  return is_numeric(dt) || dt == DType::kBool || dt == DType::kString;
}
// Element types that own C++ objects (constructed and destroyed with the buffer).
inline bool holds_objects(DType dt) { return dt == DType::kString || dt == DType::kResource; }

// Compile-time mapping C++ type -> DType.
template <typename T> struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::kFloat32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::kFloat64; };
template <> struct DTypeOf<int8_t> { static constexpr DType value = DType::kInt8; };
template <> struct DTypeOf<int16_t> { static constexpr DType value = DType::kInt16; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::kInt32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::kInt64; };
template <> struct DTypeOf<uint8_t> { static constexpr DType value = DType::kUInt8; };
template <> struct DTypeOf<bool> { static constexpr DType value = DType::kBool; };
template <> struct DTypeOf<uint16_t> { static constexpr DType value = DType::kUInt16; };
template <> struct DTypeOf<uint32_t> { static constexpr DType value = DType::kUInt32; };
template <> struct DTypeOf<uint64_t> { static constexpr DType value = DType::kUInt64; };
template <> struct DTypeOf<Eigen::half> { static constexpr DType value = DType::kHalf; };
template <> struct DTypeOf<Eigen::bfloat16> { static constexpr DType value = DType::kBFloat16; };
template <> struct DTypeOf<std::complex<float>> { static constexpr DType value = DType::kComplex64; };
template <> struct DTypeOf<std::complex<double>> { static constexpr DType value = DType::kComplex128; };
template <> struct DTypeOf<std::string> { static constexpr DType value = DType::kString; };

// Calls fn(T{}) with the C++ type for dt. The type lists say which dtypes a kernel supports;
// returns false when dt is not in the list.
template <typename... Ts> struct TypeList {};
using FloatTypes = TypeList<float, double>;
using IntTypes = TypeList<int8_t, int16_t, int32_t, int64_t, uint8_t>;
using NumericTypes = TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t>;
using SignedNumericTypes = TypeList<float, double, int8_t, int16_t, int32_t, int64_t>;
using AllTypes = TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool, std::string>;
// The dtypes added after the first nine. Kernels opt in to them list by list, only where TF
// registers a kernel for them (each instantiation costs compile time).
using HalfTypes = TypeList<Eigen::half, Eigen::bfloat16>;
using ComplexTypes = TypeList<std::complex<float>, std::complex<double>>;
using WideUnsignedTypes = TypeList<uint16_t, uint32_t, uint64_t>;

// Concatenates type lists: Concat<FloatTypes, HalfTypes>.
template <typename... Lists> struct ConcatLists;
template <typename... Ts> struct ConcatLists<TypeList<Ts...>> { using type = TypeList<Ts...>; };
template <typename... As, typename... Bs, typename... Rest>
struct ConcatLists<TypeList<As...>, TypeList<Bs...>, Rest...> {
  using type = typename ConcatLists<TypeList<As..., Bs...>, Rest...>::type;
};
template <typename... Lists> using Concat = typename ConcatLists<Lists...>::type;

template <typename Fn>
bool visit_dtype(DType, TypeList<>, Fn&&) { return false; }
template <typename T, typename... Rest, typename Fn>
bool visit_dtype(DType dt, TypeList<T, Rest...>, Fn&& fn) {
  if (dt == DTypeOf<T>::value) {
    fn(T{});
    return true;
  }
  return visit_dtype(dt, TypeList<Rest...>{}, static_cast<Fn&&>(fn));
}

}  // namespace graphfn
