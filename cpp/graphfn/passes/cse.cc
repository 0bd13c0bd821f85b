#include "graphfn/passes/cse.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "graphfn/passes/rewrite.h"

namespace graphfn {
namespace {

void mix(size_t& h, size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

size_t endpoint_hash(Endpoint e) { return (static_cast<size_t>(e.node) << 8) ^ static_cast<size_t>(e.index); }

// A hash of what same_computation() compares, cheap enough to run on every node: the attrs
// contribute their kinds only (and a Const its dtype, shape and first bytes); candidates with
// equal hashes are compared in full. Commutative inputs and control inputs hash in any order.
size_t signature_hash(const Node& node) {
  size_t h = std::hash<const void*>()(node.op);
  if (node.op->commutative && node.inputs.size() == 2) {
    mix(h, endpoint_hash(node.inputs[0]) + endpoint_hash(node.inputs[1]));
  } else {
    for (const Endpoint& e : node.inputs) mix(h, endpoint_hash(e));
  }
  size_t controls = 0;
  for (int c : node.control_inputs) controls += std::hash<int>()(c) * 0x9e3779b97f4a7c15ULL;
  mix(h, controls);
  for (const auto& item : node.attrs.items()) mix(h, item.second.index());
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

bool same_inputs(const Node& a, const Node& b) {
  if (a.inputs == b.inputs) return true;
  // x+y and y+x
  return a.op->commutative && a.inputs.size() == 2 && b.inputs.size() == 2 && a.inputs[0] == b.inputs[1] &&
         a.inputs[1] == b.inputs[0];
}

bool same_controls(const Node& a, const Node& b) {  // as sets (both are free of duplicates)
  if (a.control_inputs.size() != b.control_inputs.size()) return false;
  for (int c : a.control_inputs) {
    if (std::find(b.control_inputs.begin(), b.control_inputs.end(), c) == b.control_inputs.end()) return false;
  }
  return true;
}

bool same_computation(const Node& a, const Node& b) {
  return a.op == b.op && same_inputs(a, b) && same_controls(a, b) && attr_maps_equal(a.attrs, b.attrs);
}

}  // namespace

bool eliminate_common_subexpressions(Graph& graph) {
  EndpointRemap remap(graph.num_nodes());
  std::unordered_multimap<size_t, int> seen;  // signature hash -> node kept
  seen.reserve(graph.num_nodes());
  bool changed = false;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    changed = remap.apply(graph, id) || changed;
    const Node& node = graph.node(id);
    if (!is_pure(graph, node)) continue;
    const size_t h = signature_hash(node);
    auto range = seen.equal_range(h);
    auto match = std::find_if(range.first, range.second,
                              [&](const auto& entry) { return same_computation(graph.node(entry.second), node); });
    if (match != range.second) {
      remap.forward_node(id, match->second);  // "changed" once a use is redirected
    } else {
      seen.emplace(h, id);
    }
  }
  return remap.apply_results(graph) || changed;
}

}  // namespace graphfn
