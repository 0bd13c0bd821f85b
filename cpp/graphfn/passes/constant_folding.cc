#include "graphfn/passes/constant_folding.h"

#include "graphfn/passes/rewrite.h"
#include "graphfn/kernels/eager.h"

namespace graphfn {
namespace {

bool foldable(const Graph& graph, const Node& node) {
  // A Const has one output: multi-output nodes (Unpack) would need new nodes, which could not
  // come before their consumers.
  if (node.inputs.empty() || node.output_dtypes.size() != 1 || !is_pure(graph, node)) return false;
  for (const Endpoint& in : node.inputs) {
    if (!graph.node(in.node).const_value()) return false;
  }
  // The traced shape must be known (and small): folding then never changes what consumers see.
  const Shape& shape = node.output_shapes[0];
  return shape.fully_defined() && shape.num_elements() <= kMaxFoldedElements;
}

// The node's value, or an invalid tensor if evaluating it fails or disagrees with its traced
// dtype and shape.
Tensor evaluate(const Graph& graph, const Node& node) {
  std::vector<Tensor> inputs;
  inputs.reserve(node.inputs.size());
  for (const Endpoint& in : node.inputs) inputs.push_back(*graph.node(in.node).const_value());
  std::vector<Tensor> outputs;
  const Status s = execute_eager(*node.op, inputs.data(), static_cast<int>(inputs.size()), node.attrs, &outputs);
  if (!s.ok() || outputs.size() != 1) return Tensor();
  const Tensor& out = outputs[0];
  if (out.dtype() != node.output_dtypes[0] || out.shape() != node.output_shapes[0]) return Tensor();
  return out;
}

}  // namespace

bool fold_constants(Graph& graph) {
  bool changed = false;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node& node = graph.node(id);
    if (!foldable(graph, node)) continue;
    const Tensor value = evaluate(graph, node);
    if (!value.valid()) continue;
    graph.replace_with_const(id, value);
    changed = true;
  }
  return changed;
}

}  // namespace graphfn
