// Checking an op's inputs against its signature: input counts, and the type attrs (T, ...)
// resolved from input dtypes with TF's error messages. Shared by eager execution and graph
// building.
#pragma once
#include "graphfn/core/attr_value.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {

constexpr int kMaxTypeAttrs = 8;

// Checks the input count against the op's signature.
Status check_input_count(const OpDef& op, int num_inputs);

// Resolves the op's type attrs from input dtypes and explicit attrs, checking that inputs sharing
// a type attr agree and that each dtype is allowed. `type_attrs` gets one entry per type attr.
// With `input_mismatch`, a dtype mismatch is recorded there and resolution goes on, so callers
// can report errors in TF's order (disallowed attr value, missing kernel, then the mismatch).
// With `graph_text`, a mismatch is also described there as TF's graph building words it
// ("Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'.").
Status resolve_type_attrs(const OpDef& op, const DType* input_dtypes, int num_inputs,
                          const AttrMap& attrs, DType* type_attrs, Status* input_mismatch = nullptr,
                          std::string* graph_text = nullptr);

}  // namespace graphfn
