#include "graphfn/passes/arithmetic_simplify.h"

#include "graphfn/ir/op_registry.h"
#include "graphfn/passes/rewrite.h"

namespace graphfn {
namespace {

enum class Kind {
  kPassThrough,     // op(x) = x
  kNeutralOperand,  // op(x, c) = x when every element of the constant c is `neutral`
  kInvolution,      // op(op(x)) = x
};

struct Rule {
  const char* op;
  Kind kind;
  int keep;     // the input that is the result (for kInvolution: of the inner node)
  int neutral;  // kNeutralOperand: the constant operand's value (0 or 1)
};

constexpr Rule kRules[] = {
    {"Identity", Kind::kPassThrough, 0, 0},
    {"Mul", Kind::kNeutralOperand, 0, 1},     {"Mul", Kind::kNeutralOperand, 1, 1},
    {"AddV2", Kind::kNeutralOperand, 0, 0},   {"AddV2", Kind::kNeutralOperand, 1, 0},
    {"Sub", Kind::kNeutralOperand, 0, 0},     {"RealDiv", Kind::kNeutralOperand, 0, 1},
    {"Neg", Kind::kInvolution, 0, 0},
};
constexpr int kNumRules = sizeof(kRules) / sizeof(kRules[0]);

// kRules' OpDefs, looked up once (ops are registered before any graph exists).
const OpDef* rule_op(int r) {
  static const std::vector<const OpDef*> ops = [] {
    std::vector<const OpDef*> out;
    for (const Rule& rule : kRules) out.push_back(OpRegistry::global().find(rule.op));
    return out;
  }();
  return ops[r];
}

bool all_equal_to(const Tensor& t, int value) {
  bool result = false;
  visit_dtype(t.dtype(), NumericTypes{}, [&](auto zero) {
    using T = decltype(zero);
    const T* p = t.data<T>();
    result = true;
    for (int64_t i = 0; i < t.num_elements() && result; ++i) result = p[i] == static_cast<T>(value);
  });
  return result;
}

// The endpoint `node` always equals under `rule`, or node.node = -1 if the rule does not apply.
Endpoint simplified(const Graph& graph, const Node& node, const Rule& rule) {
  const Endpoint none{-1, 0};
  const Endpoint x = node.inputs[rule.keep];
  switch (rule.kind) {
    case Kind::kPassThrough:
      return x;
    case Kind::kNeutralOperand: {
      const Tensor* c = graph.node(node.inputs[1 - rule.keep].node).const_value();
      const Shape& shape = node.output_shapes[0];
      // Broadcasting against c may change the shape (or dtype, for other ops): only bypass when
      // the result provably looks exactly like x.
      if (!c || graph.dtype(x) != node.output_dtypes[0] || !shape.fully_defined() || graph.shape(x) != shape) {
        return none;
      }
      return all_equal_to(*c, rule.neutral) ? x : none;
    }
    case Kind::kInvolution: {
      const Node& inner = graph.node(x.node);
      if (inner.op != node.op || !inner.control_inputs.empty()) return none;
      return inner.inputs[rule.keep];
    }
  }
  return none;
}

}  // namespace

bool simplify_arithmetic(Graph& graph) {
  EndpointRemap remap(graph.num_nodes());
  bool changed = false;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    changed = remap.apply(graph, id) || changed;
    const Node& node = graph.node(id);
    // A control input orders the node's consumers after something: bypassing would lose that.
    if (!node.control_inputs.empty() || node.output_dtypes.size() != 1 || !is_pure(graph, node)) continue;
    for (int r = 0; r < kNumRules; ++r) {
      if (node.op != rule_op(r)) continue;
      const Endpoint to = simplified(graph, node, kRules[r]);
      if (to.node < 0) continue;
      remap.forward(Endpoint{id, 0}, to);  // "changed" once a use is redirected
      break;
    }
  }
  return remap.apply_results(graph) || changed;
}

}  // namespace graphfn
