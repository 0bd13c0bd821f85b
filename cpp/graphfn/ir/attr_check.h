// Checking a node's attrs against its OpDef when they come from outside the tracer (a saved
// graph): every attr is declared by the op and holds its declared kind, required attrs are
// present, defaults are filled in (TF's AddDefaultsToNodeDef), and list attrs that describe the
// inputs ("N" of "values: N * T", "T" of "inputs: T" with "T: list(type)") agree with them (or
// are filled in from them); output counts stay within bounds. Attrs whose names start with
// "_" are graphfn's own annotations and pass unchecked.
#pragma once
#include "graphfn/core/attr_value.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {

// Most outputs one node may declare through a number attr (Unpack's "num", ...).
constexpr int64_t kMaxListOutputs = int64_t(1) << 16;

// The kind an attr value holds, in OpDef syntax: "int", "list(type)", "func", ...; "" if none.
const char* attr_kind(const AttrValue& value);

// Validates `attrs` for a node of `op` with inputs of `input_dtypes`; fills in defaulted attrs
// (type attrs are left to type resolution, which infers them from the inputs).
Status check_node_attrs(const OpDef& op, const std::vector<DType>& input_dtypes, AttrMap* attrs);

}  // namespace graphfn
