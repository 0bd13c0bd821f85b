// An OpDef summarized on one line as TF's error messages show it:
// "Op<name=Sqrt; signature=x:T -> y:T; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, ...]>".
#pragma once
#include <string>

#include "graphfn/ir/op_def.h"

namespace graphfn {

std::string summarize_op_def(const OpDef& op);

// An attr's allowed dtypes as TF lists them in messages: TF's DataTypeString names
// ("half, float, double") or, with `python_names`, TF's Python names ("float16, float32").
std::string allowed_types_text(const AttrDef& attr, bool python_names = false);

}  // namespace graphfn
