#include "graphfn/passes/cse.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "graphfn/passes/rewrite.h"

namespace graphfn {
namespace {

// Inputs in a canonical order: a commutative op's two inputs sorted, so x+y and y+x match.
std::vector<Endpoint> canonical_inputs(const Node& node) {
  std::vector<Endpoint> in = node.inputs;
  if (node.op->commutative && in.size() == 2) {
    auto less = [](Endpoint a, Endpoint b) { return a.node != b.node ? a.node < b.node : a.index < b.index; };
    if (less(in[1], in[0])) std::swap(in[0], in[1]);
  }
  return in;
}

std::vector<int> sorted_controls(const Node& node) {
  std::vector<int> deps = node.control_inputs;
  std::sort(deps.begin(), deps.end());
  return deps;
}

void mix(size_t& h, size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

// A hash over what equality compares, minus attr values (equal-hash candidates are compared in
// full). A Const's value is hashed by its dtype, shape and first element bytes.
size_t signature_hash(const Node& node, const std::vector<Endpoint>& inputs, const std::vector<int>& controls) {
  size_t h = std::hash<const void*>()(node.op);
  for (const Endpoint& e : inputs) mix(h, (static_cast<size_t>(e.node) << 8) ^ static_cast<size_t>(e.index));
  for (int c : controls) mix(h, static_cast<size_t>(c) * 31);
  for (const auto& [name, value] : node.attrs.items()) mix(h, std::hash<std::string>()(name) ^ value.index());
  if (const Tensor* t = node.const_value()) {
    mix(h, static_cast<size_t>(t->dtype()));
    for (int64_t d : t->shape().dims()) mix(h, static_cast<size_t>(d));
    if (!holds_objects(t->dtype()) && t->bytes() > 0) {
      size_t first = 0;
      std::memcpy(&first, t->raw_data(), std::min(sizeof(first), t->bytes()));
      mix(h, first);
    }
  }
  return h;
}

struct Candidate {
  int id;
  std::vector<Endpoint> inputs;
  std::vector<int> controls;
};

bool same_computation(const Graph& graph, const Candidate& a, const Node& b, const std::vector<Endpoint>& b_inputs,
                      const std::vector<int>& b_controls) {
  const Node& na = graph.node(a.id);
  return na.op == b.op && a.inputs == b_inputs && a.controls == b_controls && attr_maps_equal(na.attrs, b.attrs);
}

}  // namespace

bool eliminate_common_subexpressions(Graph& graph) {
  EndpointRemap remap(graph.num_nodes());
  std::unordered_multimap<size_t, Candidate> seen;
  bool changed = false;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    Node& node = graph.mutable_node(id);
    changed = remap.apply(node) || changed;
    if (!is_pure(graph, node)) continue;
    std::vector<Endpoint> inputs = canonical_inputs(node);
    std::vector<int> controls = sorted_controls(node);
    const size_t h = signature_hash(node, inputs, controls);
    auto range = seen.equal_range(h);
    auto match = std::find_if(range.first, range.second, [&](const auto& entry) {
      return same_computation(graph, entry.second, node, inputs, controls);
    });
    if (match != range.second) {
      remap.forward_node(id, match->second.id);  // "changed" once a use is redirected
    } else {
      seen.emplace(h, Candidate{id, std::move(inputs), std::move(controls)});
    }
  }
  return remap.apply_results(graph) || changed;
}

}  // namespace graphfn
