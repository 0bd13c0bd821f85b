// DType: the element types a Tensor can hold. Enum values are TensorFlow's DataType numbers,
// so saved graphs and error messages can use TF's ids and names.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

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
  kInt64 = 9,
  kBool = 10,
  kResource = 20,  // handles to state such as variables (core/resource.h)
};
constexpr int kNumDTypes = 21;  // one past the largest enum value

const char* dtype_name(DType dt);     // "float32", "int32", ... (TF's Python names)
const char* dtype_tf_enum(DType dt);  // "DT_FLOAT", "DT_INT32", ... (TF's DataType names)
const char* dtype_tf_string(DType dt); // "float", "double", "int32", ... (TF's DataTypeString)
size_t dtype_size(DType dt);          // bytes per element; sizeof(std::string) for kString
bool dtype_from_name(const std::string& name, DType* out);
inline bool is_floating(DType dt) { return dt == DType::kFloat32 || dt == DType::kFloat64; }
inline bool is_integer(DType dt) {
  return dt == DType::kInt8 || dt == DType::kInt16 || dt == DType::kInt32 || dt == DType::kInt64 ||
         dt == DType::kUInt8;
}
inline bool is_numeric(DType dt) { return is_floating(dt) || is_integer(dt); }
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
template <> struct DTypeOf<std::string> { static constexpr DType value = DType::kString; };

// Calls fn(T{}) with the C++ type for dt. The type lists say which dtypes a kernel supports;
// returns false when dt is not in the list.
template <typename... Ts> struct TypeList {};
using FloatTypes = TypeList<float, double>;
using IntTypes = TypeList<int8_t, int16_t, int32_t, int64_t, uint8_t>;
using NumericTypes = TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t>;
using SignedNumericTypes = TypeList<float, double, int8_t, int16_t, int32_t, int64_t>;
using AllTypes = TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool, std::string>;

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
