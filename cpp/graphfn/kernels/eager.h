// Eager execution of one op: resolve type attrs from the inputs, run the shape function
// (which validates), pick the kernel for the dtype, run it. Errors carry " [Op:Name]" like TF's.
#pragma once
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/op_def.h"
#include "graphfn/ir/type_check.h"

namespace graphfn {

Status execute_eager(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                     std::vector<Tensor>* outputs);

// The same on inputs given by pointer: the Python binding's path, which copies no tensors.
Status execute_eager(const OpDef& op, const Tensor* const* inputs, int num_inputs, const AttrMap& attrs,
                     std::vector<Tensor>* outputs);

// Convenience for C++ callers and tests: look the op up by name.
Status execute_eager(const std::string& op_name, const std::vector<Tensor>& inputs,
                     const AttrMap& attrs, std::vector<Tensor>* outputs);

// The kernel for resolved type attrs, or TF's NotFound error.
Status find_kernel(const OpDef& op, const DType* type_attrs, KernelFn* kernel);

// Runs an already-resolved op on concrete inputs: shape function (validation, output shapes),
// then the kernel. Eager execution's: `outputs` is resized to the op's output count.
Status run_kernel(const OpDef& op, KernelFn kernel, const Tensor* const* inputs, int num_inputs,
                  const AttrMap& attrs, const DType* type_attrs, std::vector<Tensor>* outputs);
// The graph executor's: the kernel writes into the step's `num_outputs` output slots; `node` is
// the step (a graph node's identity, for kernels with per-node state) and `prepared` its
// prepared attrs (KernelContext::prepared).
Status run_kernel(const OpDef& op, KernelFn kernel, const Tensor* const* inputs, int num_inputs,
                  const AttrMap& attrs, const DType* type_attrs, Tensor* outputs, int num_outputs, const void* node,
                  const void* prepared);

// TF's ResourceExhaustedError for a kernel whose allocation failed (std::bad_alloc: an output of
// 2^40 elements that its shape allows), naming the largest of the outputs given.
Status kernel_out_of_memory(const std::vector<DType>& dtypes, const std::vector<Shape>& shapes);

// TF's eager error decorations: " [Op:Name] name: " and the "{{function_node ...}}" prefix,
// which names the wrapped function after the op and its list lengths ("ConcatV2_N_2").
Status with_op_suffix(const Status& s, const OpDef& op);
std::string function_name(const OpDef& op, int num_inputs, const AttrMap& attrs);
Status with_node_prefix(const Status& s, const OpDef& op, const std::string& function);

}  // namespace graphfn
