// The one check of an op call against its OpDef, before any shape function or kernel sees it.
// Eager execution (kernels/eager.cc), graph building (Graph::add_node, which also serves graphs
// read from files), plan building (runtime/plan.cc) and the attr checks of loaded graphs
// (ir/attr_check.h) all go through validate_op_call, so shape functions and kernels may rely on
// what it guarantees:
//  - the input count fits the signature (list inputs take the inputs the others leave);
//  - every attr given is declared by the op and holds its declared kind (attrs whose names start
//    with "_" are graphfn's own annotations and pass unchecked);
//  - type attrs hold dtypes graphfn has (no DataType number past the kernel tables);
//  - int attrs, list attrs and list inputs respect the op's minimums ("N: int >= 2"); a number
//    attr given for a list input agrees with its length; number attrs of outputs stay within
//    [0, kMaxListOutputs]; a list(type) attr given for a list input lists its dtypes;
//  - attrs without a default are present (type attrs excepted: inputs decide them);
//  - While/StatelessWhile carry at least one loop variable.
// Type attrs are then resolved from the inputs by resolve_type_attrs (ir/type_check.h).
#pragma once
#include <cstdint>
#include <string>

#include "graphfn/core/attr_value.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {

// Most outputs one node may declare through a number attr (Unpack's "num", ...): TF's bound,
// checked before a shape function loops over them (tf.unstack(x, num=10**12) on an unknown
// shape fails at once, as in TF).
constexpr int64_t kMaxListOutputs = INT32_MAX;

// Errors are InvalidArgument in the words of TF's eager runtime ("Value for attr 'N' of 1 must be
// at least minimum 2\n\t; NodeDef: {{node ConcatOffset}}; Op<...>"). With `graph_text`, a problem
// that TF's graph building reports as ValueError is also described there in its words
// ("List argument 'shape' to 'ConcatOffset' Op with length 1 shorter than minimum length 2.").
Status validate_op_call(const OpDef& op, const DType* input_dtypes, int num_inputs, const AttrMap& attrs,
                        std::string* graph_text = nullptr);

// A DataType number given for type attr `attr` of `op` (from Python or a file) as a graphfn
// dtype. TF's error for a number that names no DataType ("AttrValue has invalid DataType enum:
// 99"), an error naming the dtype for one graphfn has no tensors for (uint32, complex64, ...).
Status dtype_from_code(const OpDef& op, const std::string& attr, int64_t code, DType* out);

// The number of outputs a node of `op` with `attrs` has by its signature, or -1 when an attr
// that decides it is missing or the op is control flow (While nodes also output what their
// bodies accumulate).
int expected_num_outputs(const OpDef& op, const AttrMap& attrs);

}  // namespace graphfn
