#include "graphfn/core/dtype.h"

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
    case DType::kResource: return "DT_RESOURCE";
    default: return "DT_INVALID";
  }
}

const char* dtype_tf_string(DType dt) {
  if (dt == DType::kFloat32) return "float";
  if (dt == DType::kFloat64) return "double";
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

}  // namespace graphfn
