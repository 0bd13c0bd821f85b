// TF's one-line description of a node in graph-building errors:
//   {{node MatMul}} = MatMul[T=DT_FLOAT, transpose_a=false, transpose_b=false](x, Const)
// and the full message a shape function's error becomes while tracing ("... for '<summary>'
// with input shapes: [2,3], [1]."), which the Python layer raises as ValueError.
#pragma once
#include <string>
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/ir/op_def.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {

// `attrs` are the node's own (type attrs resolved); the op's defaults fill the rest.
std::string node_summary(const OpDef& op, const std::string& name, const std::vector<std::string>& input_names,
                         const AttrMap& attrs);

// The shape function's message with TF's context: the node, its input shapes, and the input
// values the shape function read (as tensors, or as partial shapes for shape inputs).
std::string shape_error_message(const std::string& message, const std::string& summary, const InputInfo* inputs,
                                int num_inputs, const std::vector<int>& value_inputs,
                                const std::vector<std::pair<int, Shape>>& partial_shapes);

}  // namespace graphfn
