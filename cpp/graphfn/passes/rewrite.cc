#include "graphfn/passes/rewrite.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace graphfn {

bool is_pure(const Graph& graph, const Node& node) {
  if (node.op->stateful || node.op->resource_access != OpDef::ResourceAccess::kNone) return false;
  // A StatelessIf/While is pure, but only plans can run its subgraphs (folding cannot).
  if (node.op->control_flow != OpDef::ControlFlow::kNone) return false;
  if (node.inputs.empty() && !node.const_value()) return false;  // Placeholder: fed at run time
  for (const Endpoint& in : node.inputs) {
    if (graph.dtype(in) == DType::kResource) return false;
  }
  for (DType dt : node.output_dtypes) {
    if (dt == DType::kResource) return false;
  }
  return true;
}

bool tensors_equal(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.dtype() == DType::kResource) return a.raw_data() == b.raw_data();  // same handles only
  if (a.dtype() == DType::kString) {
    const std::string* x = a.data<std::string>();
    return std::equal(x, x + a.num_elements(), b.data<std::string>());
  }
  return a.bytes() == 0 || std::memcmp(a.raw_data(), b.raw_data(), a.bytes()) == 0;
}

bool attr_values_equal(const AttrValue& a, const AttrValue& b) {
  if (a.index() != b.index()) return false;
  return std::visit([&b](const auto& x) {
    using T = std::decay_t<decltype(x)>;
    const T& y = std::get<T>(b);
    if constexpr (std::is_same_v<T, Tensor>) {
      return tensors_equal(x, y);
    } else if constexpr (std::is_same_v<T, double>) {
      return std::memcmp(&x, &y, sizeof(double)) == 0;
    } else if constexpr (std::is_same_v<T, std::monostate>) {
      return true;
    } else {
      return x == y;
    }
  }, a);
}

bool attr_maps_equal(const AttrMap& a, const AttrMap& b) {
  if (a.items().size() != b.items().size()) return false;
  for (const auto& [name, value] : a.items()) {
    const AttrValue* other = b.find(name);
    if (!other || !attr_values_equal(value, *other)) return false;
  }
  return true;
}

namespace {
int64_t endpoint_key(Endpoint e) { return (static_cast<int64_t>(e.node) << 32) | static_cast<uint32_t>(e.index); }
}  // namespace

void EndpointRemap::forward(Endpoint from, Endpoint to) {
  endpoints_[endpoint_key(from)] = to;
  control_target_[from.node] = to.node;
}

void EndpointRemap::forward_node(int from, int to) {
  node_target_[from] = to;
  control_target_[from] = to;
}

Endpoint EndpointRemap::resolve(Endpoint e) const {
  if (node_target_[e.node] >= 0) return Endpoint{node_target_[e.node], e.index};
  auto it = endpoints_.find(endpoint_key(e));
  return it == endpoints_.end() ? e : it->second;
}

bool EndpointRemap::apply(Graph& graph, int id) const {
  const Node& current = graph.node(id);
  bool stale = false;
  for (const Endpoint& in : current.inputs) stale = stale || !(resolve(in) == in);
  for (int c : current.control_inputs) stale = stale || resolve_control(c) != c;
  if (!stale) return false;
  Node& node = graph.mutable_node(id);
  for (Endpoint& in : node.inputs) in = resolve(in);
  std::vector<int> deps;
  for (int c : node.control_inputs) {
    const int to = resolve_control(c);
    if (std::find(deps.begin(), deps.end(), to) == deps.end()) deps.push_back(to);
  }
  node.control_inputs = std::move(deps);
  return true;
}

bool EndpointRemap::apply_results(Graph& graph) const {
  bool changed = false;
  for (Endpoint& e : graph.results) {
    const Endpoint to = resolve(e);
    changed = changed || !(to == e);
    e = to;
  }
  return changed;
}

}  // namespace graphfn
