// TensorFlow's DataType numbers and names, including the dtypes graphfn has no tensors for
// (half, bfloat16, complex, unsigned 16-64 bit, quantized, variant). Op definitions list TF's
// allowed dtypes with them so that error messages and OpDef summaries read as TF's do.
#pragma once
#include <string>
#include <vector>

#include "graphfn/core/dtype.h"

namespace graphfn {

constexpr int kNumTfDataTypes = 24;  // one past DT_UINT64

const char* tf_type_enum(int type);    // "DT_HALF"
const char* tf_type_string(int type);  // "half" (TF's DataTypeString)
const char* tf_type_python(int type);  // "float16" (TF's Python name)

// The graphfn dtype for a TF DataType number, or kInvalid when graphfn has no such tensors.
DType tf_type_to_dtype(int type);

// Expands a type-set word of an op spec into TF DataType numbers, in TF's order: a dtype name
// ("float", "float32", "half", "complex64") or a set ("numbertype", "realnumbertype",
// "quantizedtype", "floattype", "inttype", "alltypes"). False for an unknown word.
bool tf_type_word(const std::string& word, std::vector<int>* out);

}  // namespace graphfn
