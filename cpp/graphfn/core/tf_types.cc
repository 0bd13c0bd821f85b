#include "graphfn/core/tf_types.h"

namespace graphfn {
namespace {

struct TfType {
  const char* enum_name;
  const char* string_name;
  const char* python_name;
};

// Indexed by DataType number; 0 is DT_INVALID.
const TfType kTypes[kNumTfDataTypes] = {
    {"DT_INVALID", "invalid", "invalid"},  {"DT_FLOAT", "float", "float32"},
    {"DT_DOUBLE", "double", "float64"},    {"DT_INT32", "int32", "int32"},
    {"DT_UINT8", "uint8", "uint8"},        {"DT_INT16", "int16", "int16"},
    {"DT_INT8", "int8", "int8"},           {"DT_STRING", "string", "string"},
    {"DT_COMPLEX64", "complex64", "complex64"}, {"DT_INT64", "int64", "int64"},
    {"DT_BOOL", "bool", "bool"},           {"DT_QINT8", "qint8", "qint8"},
    {"DT_QUINT8", "quint8", "quint8"},     {"DT_QINT32", "qint32", "qint32"},
    {"DT_BFLOAT16", "bfloat16", "bfloat16"}, {"DT_QINT16", "qint16", "qint16"},
    {"DT_QUINT16", "quint16", "quint16"},  {"DT_UINT16", "uint16", "uint16"},
    {"DT_COMPLEX128", "complex128", "complex128"}, {"DT_HALF", "half", "float16"},
    {"DT_RESOURCE", "resource", "resource"}, {"DT_VARIANT", "variant", "variant"},
    {"DT_UINT32", "uint32", "uint32"},     {"DT_UINT64", "uint64", "uint64"},
};

const TfType& entry(int type) { return kTypes[type > 0 && type < kNumTfDataTypes ? type : 0]; }

// TF's type sets, in the order TF lists them.
const std::vector<int> kNumberTypes = {1, 2, 3, 4, 5, 6, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 22, 23};
const std::vector<int> kRealNumberTypes = {1, 2, 3, 4, 5, 6, 9, 14, 17, 19, 22, 23};
const std::vector<int> kQuantizedTypes = {11, 12, 13, 15, 16};

}  // namespace

const char* tf_type_enum(int type) { return entry(type).enum_name; }
const char* tf_type_string(int type) { return entry(type).string_name; }
const char* tf_type_python(int type) { return entry(type).python_name; }

DType tf_type_to_dtype(int type) {
  const DType dt = static_cast<DType>(type);
  return type > 0 && type < kNumDTypes && (is_valid(dt) || dt == DType::kResource) ? dt : DType::kInvalid;
}

bool tf_type_word(const std::string& word, std::vector<int>* out) {
  auto append = [out](const std::vector<int>& types) { out->insert(out->end(), types.begin(), types.end()); };
  if (word == "numbertype") {
    append(kNumberTypes);
  } else if (word == "realnumbertype") {
    append(kRealNumberTypes);
  } else if (word == "quantizedtype") {
    append(kQuantizedTypes);
  } else if (word == "floattype") {
    append({1, 2});
  } else if (word == "inttype") {
    append({6, 5, 3, 9, 4});
  } else if (word == "alltypes") {
    append(kRealNumberTypes);
    append({8, 18, 10, 7});
  } else {
    for (int t = 1; t < kNumTfDataTypes; ++t) {
      if (word == kTypes[t].string_name || word == kTypes[t].python_name) {
        out->push_back(t);
        return true;
      }
    }
    return false;
  }
  return true;
}

}  // namespace graphfn
