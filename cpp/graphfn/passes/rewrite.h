// Shared by the optimization passes: which nodes a pass may touch, value equality of attrs, and
// EndpointRemap, which redirects uses of one output to another in a single forward sweep.
//
// Passes rewrite a graph in place without removing nodes: a node whose uses were all redirected
// simply becomes unused, and Plan::build prunes it (unused nodes never run).
#pragma once
#include <unordered_map>
#include <vector>

#include "graphfn/ir/graph.h"

namespace graphfn {

// True when a node computes a pure function of its inputs and attrs: not stateful, no resource
// access or resource-dtype inputs/outputs, and not a source fed from outside (a Placeholder).
// Only such nodes may be folded or merged; control-flow nodes are never.
bool is_pure(const Graph& graph, const Node& node);

// Value equality: same dtype, shape and elements (floats compared bit for bit, so -0.0 and 0.0
// differ and a NaN equals itself).
bool tensors_equal(const Tensor& a, const Tensor& b);
bool attr_values_equal(const AttrValue& a, const AttrValue& b);
bool attr_maps_equal(const AttrMap& a, const AttrMap& b);  // order-insensitive

// Redirects uses of outputs. Every use comes after its definition, so a single sweep in creation
// order that calls apply() on each node before looking at it sees all earlier redirections, and
// chains (a -> b -> c) resolve on their own: forward() targets are already-rewritten endpoints.
class EndpointRemap {
 public:
  explicit EndpointRemap(int num_nodes) : node_target_(num_nodes, -1), control_target_(num_nodes, -1) {}

  // Uses of `from` now read `to`; a control dependency on from.node waits for to.node instead
  // (valid when from.node has no control inputs of its own and one output).
  void forward(Endpoint from, Endpoint to);
  // Every output of `from` is the same output of `to`, and so are its control dependencies
  // (common-subexpression elimination).
  void forward_node(int from, int to);

  // Rewrites node `id`'s inputs and control inputs; true if anything changed. Untouched nodes
  // stay shared with the graph the rewritten one was cloned from.
  bool apply(Graph& graph, int id) const;
  // Rewrites the graph's results (after the sweep).
  bool apply_results(Graph& graph) const;

 private:
  Endpoint resolve(Endpoint e) const;
  int resolve_control(int node) const { return control_target_[node] >= 0 ? control_target_[node] : node; }
  std::vector<int> node_target_;     // whole-node forwarding, -1 if none
  std::vector<int> control_target_;  // where control dependencies on a node go, -1 if unchanged
  std::unordered_map<int64_t, Endpoint> endpoints_;
};

}  // namespace graphfn
