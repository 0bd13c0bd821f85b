#include "graphfn/autodiff/graph_tape.h"

namespace graphfn {

void GraphTape::start() {
  if (!recording()) intervals_.emplace_back(graph_->num_nodes(), -1);
}

void GraphTape::stop() {
  if (recording()) intervals_.back().second = graph_->num_nodes();
}

void GraphTape::watch(Endpoint e) { watched_.push_back(Watch{e, graph_->num_nodes()}); }

void GraphTape::watch_resource(const void* resource) {
  watched_resources_.emplace_back(resource, graph_->num_nodes());
}

Endpoint GraphTape::resolve(const Value& v) const {
  return v.resource ? find_resource_const(*graph_, v.resource) : v.endpoint;
}

Status GraphTape::gradient(const std::vector<Value>& targets, const std::vector<Value>& sources,
                           const std::vector<Endpoint>& target_grads, std::vector<Endpoint>* grads,
                           const std::vector<Endpoint>& stop) {
  const int n = graph_->num_nodes();
  std::vector<bool> active(n, false);
  for (const auto& [first, end] : intervals_) {
    for (int id = first; id < (end < 0 ? n : end); ++id) active[id] = true;
  }
  std::vector<Watch> watched = watched_;
  for (const auto& [resource, since] : watched_resources_) {
    const Endpoint e = find_resource_const(*graph_, resource);
    if (e.node >= 0) watched.push_back(Watch{e, since});
  }
  GradientRequest request;
  request.recorded = recorded_nodes(*graph_, watched, active);
  for (const Watch& w : watched) request.watched.push_back(w.endpoint);
  request.stop = stop;
  // Targets the graph does not hold (a variable never read here) get no gradient.
  for (size_t i = 0; i < targets.size(); ++i) {
    const Endpoint e = resolve(targets[i]);
    if (e.node < 0) continue;
    request.targets.push_back(e);
    if (!target_grads.empty()) request.target_grads.push_back(target_grads[i]);
  }
  std::vector<int> positions;  // sources the graph holds
  for (size_t i = 0; i < sources.size(); ++i) {
    const Endpoint e = resolve(sources[i]);
    if (e.node < 0) continue;
    positions.push_back(static_cast<int>(i));
    request.sources.push_back(e);
  }
  std::vector<Endpoint> found;
  GRAPHFN_RETURN_IF_ERROR(add_gradients(*graph_, request, &found));
  grads->assign(sources.size(), Endpoint{-1, 0});
  for (size_t k = 0; k < positions.size(); ++k) (*grads)[positions[k]] = found[k];
  return Status::OK();
}

Status GraphTape::graph_gradients(const std::shared_ptr<Graph>& graph, const std::vector<Value>& targets,
                                  const std::vector<Value>& sources, const std::vector<Endpoint>& target_grads,
                                  const std::vector<Endpoint>& stop, std::vector<Endpoint>* grads) {
  GraphTape tape(graph);
  tape.intervals_.emplace_back(0, -1);
  for (const Value& s : sources) {
    if (s.resource) {
      tape.watched_resources_.emplace_back(s.resource, 0);
    } else {
      tape.watched_.push_back(Watch{s.endpoint, 0});
    }
  }
  return tape.gradient(targets, sources, target_grads, grads, stop);
}

}  // namespace graphfn
