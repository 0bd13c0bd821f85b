// Eager execution of one op: resolve type attrs from the inputs, run the shape function
// (which validates), pick the kernel for the dtype, run it. Errors carry " [Op:Name]" like TF's.
#pragma once
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {

constexpr int kMaxTypeAttrs = 8;

Status execute_eager(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                     std::vector<Tensor>* outputs);

// Convenience for C++ callers and tests: look the op up by name.
Status execute_eager(const std::string& op_name, const std::vector<Tensor>& inputs,
                     const AttrMap& attrs, std::vector<Tensor>* outputs);

// Checks the input count against the op's signature.
Status check_input_count(const OpDef& op, int num_inputs);

// Resolves the op's type attrs from input dtypes and explicit attrs, checking that inputs sharing
// a type attr agree and that each dtype is allowed. `type_attrs` gets one entry per type attr.
Status resolve_type_attrs(const OpDef& op, const DType* input_dtypes, int num_inputs,
                          const AttrMap& attrs, DType* type_attrs);

// The kernel for resolved type attrs, or TF's NotFound error.
Status find_kernel(const OpDef& op, const DType* type_attrs, KernelFn* kernel);

// Runs an already-resolved op on concrete inputs: shape function (validation, output shapes),
// then the kernel. Used by eager execution and by the graph executor.
Status run_kernel(const OpDef& op, KernelFn kernel, const Tensor* inputs, int num_inputs,
                  const AttrMap& attrs, const DType* type_attrs, std::vector<Tensor>* outputs);

// TF's eager error decorations: " [Op:Name] name: " and the "{{function_node ...}}" prefix.
Status with_op_suffix(const Status& s, const OpDef& op);
Status with_node_prefix(const Status& s, const OpDef& op);

}  // namespace graphfn
