#include "graphfn/passes/scaled_updates.h"

#include <vector>

#include "graphfn/ir/op_registry.h"
#include "graphfn/kernels/scaled_update.h"

namespace graphfn {
namespace {

bool is_update(const Node& node) {
  static const OpDef* const sub = OpRegistry::global().find("AssignSubVariableOp");
  static const OpDef* const add = OpRegistry::global().find("AssignAddVariableOp");
  return node.op == sub || node.op == add;
}

// The scalar constant operand of a Mul node (float or double), or null.
const Tensor* scalar_factor(const Graph& graph, const Node& mul, int operand) {
  const Tensor* c = graph.node(mul.inputs[operand].node).const_value();
  if (c == nullptr || c->shape().rank() != 0) return nullptr;
  return c->dtype() == DType::kFloat32 || c->dtype() == DType::kFloat64 ? c : nullptr;
}

}  // namespace

bool fold_scaled_updates(Graph& graph) {
  static const OpDef* const mul_op = OpRegistry::global().find("Mul");
  // Uses of every node's first output (by nodes and as results): only a product with one use,
  // the update, may stop being computed.
  std::vector<int> uses(graph.num_nodes(), 0);
  for (int id = 0; id < graph.num_nodes(); ++id) {
    for (const Endpoint& e : graph.node(id).inputs) uses[e.node] += e.index == 0;
  }
  for (const Endpoint& e : graph.results) uses[e.node] += e.index == 0;
  bool changed = false;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node& update = graph.node(id);
    if (!is_update(update) || update.inputs.size() != 2 || update.attrs.find(kUpdateScaleAttr) != nullptr) continue;
    const Endpoint value = update.inputs[1];
    const Node& mul = graph.node(value.node);
    if (mul.op != mul_op || value.index != 0 || uses[value.node] != 1 || !mul.control_inputs.empty() ||
        mul.inputs.size() != 2) {
      continue;
    }
    for (int operand = 0; operand < 2; ++operand) {
      const Tensor* c = scalar_factor(graph, mul, operand);
      const Endpoint g = mul.inputs[1 - operand];
      // The product has g's shape and dtype exactly (a scalar broadcasts to anything).
      if (c == nullptr || graph.dtype(g) != c->dtype() || graph.dtype(value) != c->dtype()) continue;
      const Tensor scale = *c;
      Node& rewritten = graph.mutable_node(id);
      rewritten.inputs[1] = g;
      rewritten.attrs.set(kUpdateScaleAttr, scale);
      changed = true;
      break;
    }
  }
  return changed;
}

}  // namespace graphfn
