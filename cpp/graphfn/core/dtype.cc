#include "graphfn/core/dtype.h"

#include <cstring>
#include <memory>

namespace graphfn {

const char* dtype_name(DType dt) {
  switch (dt) {
    case DType::kFloat32: return "float32";
    case DType::kFloat64: return "float64";
    case DType::kInt32: return "int32";
    case DType::kUInt8: return "uint8";
    case DType::kInt16: return "int16";
    case DType::kInt8: return "int8";
    case DType::kString: return "string";
    case DType::kInt64: return "int64";
    case DType::kBool: return "bool";
    case DType::kComplex64: return "complex64";
    case DType::kBFloat16: return "bfloat16";
    case DType::kUInt16: return "uint16";
    case DType::kComplex128: return "complex128";
    case DType::kHalf: return "float16";
    case DType::kUInt32: return "uint32";
    case DType::kUInt64: return "uint64";
    case DType::kResource: return "resource";
    default: return "invalid";
  }
}

const char* dtype_tf_enum(DType dt) {
  switch (dt) {
    case DType::kFloat32: return "DT_FLOAT";
    case DType::kFloat64: return "DT_DOUBLE";
    case DType::kInt32: return "DT_INT32";
    case DType::kUInt8: return "DT_UINT8";
    case DType::kInt16: return "DT_INT16";
    case DType::kInt8: return "DT_INT8";
    case DType::kString: return "DT_STRING";
    case DType::kInt64: return "DT_INT64";
    case DType::kBool: return "DT_BOOL";
    case DType::kComplex64: return "DT_COMPLEX64";
    case DType::kBFloat16: return "DT_BFLOAT16";
    case DType::kUInt16: return "DT_UINT16";
    case DType::kComplex128: return "DT_COMPLEX128";
    case DType::kHalf: return "DT_HALF";
    case DType::kUInt32: return "DT_UINT32";
    case DType::kUInt64: return "DT_UINT64";
    case DType::kResource: return "DT_RESOURCE";
    default: return "DT_INVALID";
  }
}

const char* dtype_tf_string(DType dt) {
  if (dt == DType::kFloat32) return "float";
  if (dt == DType::kFloat64) return "double";
  if (dt == DType::kHalf) return "half";
  return dtype_name(dt);
}

size_t dtype_size(DType dt) {
  switch (dt) {
    case DType::kFloat32: return 4;
    case DType::kFloat64: return 8;
    case DType::kInt32: return 4;
    case DType::kUInt8: return 1;
    case DType::kInt16: return 2;
    case DType::kInt8: return 1;
    case DType::kString: return sizeof(std::string);
    case DType::kInt64: return 8;
    case DType::kBool: return 1;
    case DType::kComplex64: return 8;
    case DType::kBFloat16: return 2;
    case DType::kUInt16: return 2;
    case DType::kComplex128: return 16;
    case DType::kHalf: return 2;
    case DType::kUInt32: return 4;
    case DType::kUInt64: return 8;
    case DType::kResource: return sizeof(std::shared_ptr<void>);
    default: return 0;
  }
}

bool dtype_from_name(const std::string& name, DType* out) {
  for (int i = 0; i < kNumDTypes; ++i) {
    DType dt = static_cast<DType>(i);
    if ((is_valid(dt) || dt == DType::kResource) && name == dtype_name(dt)) {
      *out = dt;
      return true;
    }
  }
  return false;
}

float half_bits_to_float(DType dt, uint16_t bits) {
  uint32_t f = 0;
  if (dt == DType::kBFloat16) {
    f = static_cast<uint32_t>(bits) << 16;  // bfloat16 is a float32's upper half
  } else {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1f;
    uint32_t mantissa = bits & 0x3ff;
    if (exponent == 0x1f) {
      f = sign | 0x7f800000u | (mantissa << 13);  // inf, nan
    } else if (exponent != 0) {
      f = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
      f = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mantissa <<= 1;
      } while ((mantissa & 0x400) == 0);
      f = sign | (static_cast<uint32_t>(112 - e) << 23) | ((mantissa & 0x3ff) << 13);
    }
  }
  float out;
  std::memcpy(&out, &f, sizeof out);
  return out;
}

}  // namespace graphfn
