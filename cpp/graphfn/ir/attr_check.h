// Completing and checking a node's attrs when they come from outside the tracer (a saved graph):
// list attrs that describe the inputs ("N" of "values: N * T", "T" of "inputs: T" with
// "T: list(type)") and defaults are filled in (TF's AddDefaultsToNodeDef), then the node is
// checked by validate_op_call (ir/op_validation.h), as every op call is.
#pragma once
#include "graphfn/core/attr_value.h"
#include "graphfn/ir/op_def.h"
#include "graphfn/ir/op_validation.h"

namespace graphfn {

// The kind an attr value holds, in OpDef syntax: "int", "list(type)", "func", ...; "" if none.
const char* attr_kind(const AttrValue& value);

// Fills in the attrs of a node of `op` with inputs of `input_dtypes` that the inputs or defaults
// decide (type attrs are left to type resolution, which infers them from the inputs), then
// validates the node.
Status check_node_attrs(const OpDef& op, const std::vector<DType>& input_dtypes, AttrMap* attrs);

}  // namespace graphfn
