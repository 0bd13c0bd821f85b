#include "graphfn/autodiff/symbolic_gradients.h"

#include <unordered_map>

#include "graphfn/core/resource.h"
#include "graphfn/autodiff/gradient.h"
#include "graphfn/ir/graph_copy.h"
#include "graphfn/autodiff/graph_grad_builder.h"

namespace graphfn {
namespace {

// Maps every resource Const to the first Const holding the same resource, in one scan.
class Aliases {
 public:
  explicit Aliases(const Graph& graph) : graph_(graph) {
    std::unordered_map<const void*, int> first;
    for (int id = 0; id < graph.num_nodes(); ++id) {
      if (const void* r = resource_of(graph, Endpoint{id, 0})) {
        auto [it, inserted] = first.emplace(r, id);
        if (!inserted) alias_[id] = it->second;
      }
    }
  }
  Endpoint operator()(Endpoint e) const {
    auto it = alias_.find(e.node);
    return it == alias_.end() ? e : Endpoint{it->second, 0};
  }

 private:
  const Graph& graph_;
  std::unordered_map<int, int> alias_;
};

bool differentiable(const Node& node) {
  return !node.op->not_differentiable && node.op->name != "Const" && node.op->name != "Placeholder";
}

}  // namespace

const void* resource_of(const Graph& graph, Endpoint e) {
  const Tensor* value = graph.node(e.node).const_value();
  if (!value || value->dtype() != DType::kResource) return nullptr;
  return value->data<ResourceHandle>()->get();
}

Endpoint find_resource_const(const Graph& graph, const void* resource) {
  for (int id = 0; id < graph.num_nodes(); ++id) {
    if (resource && resource_of(graph, Endpoint{id, 0}) == resource) return Endpoint{id, 0};
  }
  return Endpoint{-1, 0};
}

Endpoint resource_alias(const Graph& graph, Endpoint e) {
  const void* r = resource_of(graph, e);
  return r ? find_resource_const(graph, r) : e;
}

std::vector<bool> recorded_nodes(const Graph& graph, const std::vector<Watch>& watched, const std::vector<bool>& active) {
  const Aliases alias(graph);
  const int n = graph.num_nodes();
  std::unordered_map<Endpoint, int, EndpointHash> since;  // tracked endpoint -> first node seeing it
  for (const Watch& w : watched) {
    const Endpoint e = alias(w.endpoint);
    auto it = since.find(e);
    if (it == since.end() || it->second > w.since) since[e] = w.since;
  }
  std::vector<bool> recorded(n, false);
  for (int id = 0; id < n; ++id) {
    if (id >= static_cast<int>(active.size()) || !active[id]) continue;
    const Node& node = graph.node(id);
    if (!differentiable(node)) continue;
    for (const Endpoint& in : node.inputs) {
      if (!is_trainable_dtype(graph.dtype(in))) continue;
      auto it = since.find(alias(in));
      if (it != since.end() && it->second <= id) {
        recorded[id] = true;
        break;
      }
    }
    if (!recorded[id]) continue;
    for (size_t k = 0; k < node.output_dtypes.size(); ++k) since.emplace(Endpoint{id, static_cast<int>(k)}, id);
  }
  return recorded;
}

Status add_gradients(Graph& graph, const GradientRequest& request, std::vector<Endpoint>* grads) {
  const int num_forward = graph.num_nodes();  // gradient nodes are appended after these
  const Aliases alias(graph);
  std::vector<bool> recorded = request.recorded;
  const std::vector<Endpoint>& watched = recorded.empty() ? request.sources : request.watched;
  if (recorded.empty()) {
    std::vector<Watch> watches;
    for (const Endpoint& s : request.sources) watches.push_back(Watch{s, 0});
    recorded = recorded_nodes(graph, watches, std::vector<bool>(num_forward, true));
  }
  recorded.resize(num_forward, false);
  for (const Endpoint& e : request.stop) recorded[alias(e).node] = false;
  std::unordered_map<Endpoint, bool, EndpointHash> is_source, is_watched;
  for (const Endpoint& s : request.sources) is_source[alias(s)] = true;
  for (const Endpoint& w : watched) is_watched[alias(w)] = true;
  // Gradients reach recorded nodes' outputs and watched values only.
  auto tracked = [&](Endpoint e) { return recorded[e.node] || is_watched.count(e); };

  GraphGradBuilder b(&graph, request.scope);
  std::unordered_map<Endpoint, std::vector<GradValue>, EndpointHash> pending;
  for (size_t i = 0; i < request.targets.size(); ++i) {
    const Endpoint t = alias(request.targets[i]);
    if (!tracked(t) && !is_source.count(t)) continue;
    const bool given = i < request.target_grads.size() && request.target_grads[i].node >= 0;
    GradValue seed = given ? GradValue(request.target_grads[i])
                           : b.op("Fill", {b.shape_of(GradValue(t)), b.scalar(graph.dtype(t), 1)});
    GRAPHFN_RETURN_IF_ERROR(b.status());
    pending[t].push_back(seed);
  }
  // The sum of the gradients pending for `e`; a source keeps its sum for the result.
  auto take = [&](Endpoint e) -> GradValue {
    auto it = pending.find(e);
    if (it == pending.end()) return GradValue();
    GradValue sum = b.add_n(it->second);
    if (is_source.count(e)) {
      it->second.assign(1, sum);
    } else {
      pending.erase(it);
    }
    return sum;
  };

  std::vector<GradValue> input_grads;
  for (int id = num_forward; id-- > 0 && !pending.empty();) {
    if (!recorded[id]) continue;
    GradInputs in;
    const int num_outputs = static_cast<int>(graph.node(id).output_dtypes.size());
    bool any = false;
    for (int k = 0; k < num_outputs; ++k) {
      in.output_grads.push_back(take(Endpoint{id, k}));
      any = any || !in.output_grads.back().is_null();
    }
    GRAPHFN_RETURN_IF_ERROR(b.status());
    if (!any) continue;
    // Copies: gradient functions append nodes, and control-flow ones rewrite this node.
    const OpDef* op = graph.node(id).op;
    const AttrMap attrs = graph.node(id).attrs;
    const std::vector<Endpoint> inputs = graph.node(id).inputs;
    in.op = op;
    in.attrs = &attrs;
    in.node = id;
    for (const Endpoint& e : inputs) in.inputs.emplace_back(e);
    for (int k = 0; k < num_outputs; ++k) in.outputs.emplace_back(Endpoint{id, k});
    GRAPHFN_RETURN_IF_ERROR(call_gradient(b, in, &input_grads));
    for (size_t j = 0; j < inputs.size(); ++j) {
      const Endpoint e = alias(inputs[j]);
      if (input_grads[j].is_null() || !tracked(e)) continue;
      pending[e].push_back(std::move(input_grads[j]));
    }
  }

  grads->clear();
  for (const Endpoint& s : request.sources) {
    GradValue g = take(alias(s));
    GRAPHFN_RETURN_IF_ERROR(b.status());
    grads->push_back(g.is_null() ? Endpoint{-1, 0} : g.endpoint);
  }
  return Status::OK();
}

}  // namespace graphfn
