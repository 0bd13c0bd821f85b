// Eager execution of one op: resolve type attrs from the inputs, run the shape function
// (which validates), pick the kernel for the dtype, run it. Errors carry " [Op:Name]" like TF's.
#pragma once
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {

Status execute_eager(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                     std::vector<Tensor>* outputs);

// Resolves the op's type attrs from input dtypes and explicit attrs and checks that each dtype
// is allowed. `type_attrs` gets one entry per type attr. An input whose dtype disagrees with its
// type attr goes to `input_mismatch` (TF reports it only after the kernel lookup).
Status resolve_type_attrs(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                          DType* type_attrs, Status* input_mismatch);

// Convenience for C++ callers and tests: look the op up by name.
Status execute_eager(const std::string& op_name, const std::vector<Tensor>& inputs,
                     const AttrMap& attrs, std::vector<Tensor>* outputs);

}  // namespace graphfn
