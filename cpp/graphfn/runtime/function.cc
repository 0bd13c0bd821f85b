#include "graphfn/runtime/function.h"

#include <algorithm>

#include "graphfn/autodiff/gradient.h"
#include "graphfn/ir/graph_copy.h"
#include "graphfn/autodiff/symbolic_gradients.h"
#include "graphfn/autodiff/tape.h"

namespace graphfn {

// How a backward function is fed from a call's tape entry, whose outputs are the function's
// outputs followed by the saved values.
struct CompiledFunction::Backward {
  std::shared_ptr<const CompiledFunction> fn;
  std::vector<int> seeds;        // entry outputs whose gradients are fed first (zeros for none)
  std::vector<int> saved_feeds;  // entry outputs fed after them (saved values)
  std::vector<int> input_grads;  // per entry input: index of its gradient among fn's results, or -1
};

struct CompiledFunction::Gradient {
  std::shared_ptr<const Plan> forward;     // results: the outputs, then the saved values
  int num_outputs = 0;
  std::shared_ptr<const Graph> augmented;  // the graph `forward` runs (control flow may output more)
  std::vector<Endpoint> saved;             // endpoints of `augmented`
  std::vector<Endpoint> sources;           // of `augmented`: the tracked arguments and captured variables
  std::vector<int> source_inputs;          // their positions among the entry's inputs
  int num_inputs = 0;                      // the entry's inputs: arguments, then captured variables
  Backward backward;                       // seeded by the outputs
  std::string name;
  OptimizerOptions options;
  // Seeded by saved values too, when a higher-order gradient reaches them: one per set of saved
  // values reached, built on demand.
  mutable std::mutex mu;
  mutable std::map<std::vector<bool>, std::shared_ptr<const Backward>> with_saved;
  Status backward_with_saved(const std::vector<bool>& reached, const Backward** out) const;
};

namespace {

bool is_float(DType dt) { return dt == DType::kFloat32 || dt == DType::kFloat64; }

// A graph differentiated and cut in two: the backward graph (arguments: one gradient per seed,
// then the saved values; results: the sources' gradients that exist) and the forward graph as
// the gradient left it (control-flow nodes may have been rewritten to output intermediates).
struct Cut {
  std::unique_ptr<Graph> backward;
  std::unique_ptr<Graph> forward;
  std::vector<Endpoint> saved;  // forward endpoints fed to the backward graph, in argument order
  std::vector<int> result_of_source;  // per source: index among backward's results, or -1
};

Status differentiate(const Graph& graph, const std::vector<Endpoint>& seeds, const std::vector<Endpoint>& sources,
                     Cut* cut) {
  // Shared: a custom gradient's Python function builds its ops into this graph.
  std::shared_ptr<Graph> g = graph.clone();
  const int num_forward = g->num_nodes();
  GradientRequest request;
  request.targets = seeds;
  request.sources = sources;
  for (const Endpoint& s : seeds) {
    int id = -1;
    GRAPHFN_RETURN_IF_ERROR(g->add_placeholder(g->dtype(s), g->shape(s), "dy", &id));
    request.target_grads.push_back(Endpoint{id, 0});
  }
  std::vector<Endpoint> grads;
  GRAPHFN_RETURN_IF_ERROR(add_gradients(*g, request, &grads));

  auto backward = std::make_unique<Graph>();
  EndpointMap mapped;
  for (const Endpoint& dy : request.target_grads) {
    int id = -1;
    GRAPHFN_RETURN_IF_ERROR(backward->add_placeholder(g->dtype(dy), g->shape(dy), "dy", &id));
    backward->arguments.push_back(id);
    mapped[dy] = Endpoint{id, 0};
  }
  std::vector<int> saved_placeholders;
  auto external = [&](Endpoint e, Endpoint* r) -> Status {
    if (g->node(e.node).const_value()) return copy_const(*g, e.node, backward.get(), r);
    int id = -1;
    GRAPHFN_RETURN_IF_ERROR(backward->add_placeholder(g->dtype(e), g->shape(e), g->node(e.node).name, &id));
    cut->saved.push_back(e);
    saved_placeholders.push_back(id);
    *r = Endpoint{id, 0};
    return Status::OK();
  };
  std::vector<Endpoint> roots;
  for (const Endpoint& e : grads) {
    cut->result_of_source.push_back(e.node < 0 ? -1 : static_cast<int>(roots.size()));
    if (e.node >= 0) roots.push_back(e);
  }
  GRAPHFN_RETURN_IF_ERROR(copy_subgraph(*g, num_forward, roots, backward.get(), &mapped, external, &backward->results));
  backward->arguments.insert(backward->arguments.end(), saved_placeholders.begin(), saved_placeholders.end());
  cut->backward = std::move(backward);
  cut->forward = g->clone_prefix(num_forward);
  return Status::OK();
}

std::vector<Endpoint> float_endpoints(const Graph& g, const std::vector<Endpoint>& endpoints, std::vector<int>* where,
                                      int offset) {
  std::vector<Endpoint> out;
  for (size_t i = 0; i < endpoints.size(); ++i) {
    if (!is_float(g.dtype(endpoints[i]))) continue;
    out.push_back(endpoints[i]);
    where->push_back(offset + static_cast<int>(i));
  }
  return out;
}

Status make_backward(Cut& cut, const CompiledFunction::Gradient& g, CompiledFunction::Backward* out) {
  std::shared_ptr<const CompiledFunction> fn;
  GRAPHFN_RETURN_IF_ERROR(
      CompiledFunction::create(std::shared_ptr<const Graph>(std::move(cut.backward)), "__backward_" + g.name, g.options, &fn));
  out->fn = std::move(fn);
  out->input_grads.assign(g.num_inputs, -1);
  for (size_t k = 0; k < g.source_inputs.size(); ++k) out->input_grads[g.source_inputs[k]] = cut.result_of_source[k];
  return Status::OK();
}

// The gradient of a recorded call: runs the backward function (eagerly; the call is recorded by
// enclosing tapes, which is how higher derivatives flow through functions).
Status call_grad(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* grads) {
  if (!in.context || !dynamic_cast<EagerGradBuilder*>(&b)) {
    return errors::Unimplemented("a function call can only be differentiated on an eager tape");
  }
  const auto& g = *static_cast<const CompiledFunction::Gradient*>(in.context);
  std::vector<bool> reached(g.saved.size(), false);
  bool saved_reached = false;
  for (size_t k = 0; k < reached.size(); ++k) {
    reached[k] = !in.output_grads[g.num_outputs + k].is_null();
    saved_reached = saved_reached || reached[k];
  }
  const CompiledFunction::Backward* bw = &g.backward;
  if (saved_reached) GRAPHFN_RETURN_IF_ERROR(g.backward_with_saved(reached, &bw));
  std::vector<Tensor> feeds;
  for (int s : bw->seeds) {
    const GradValue& dy = in.output_grads[s];
    feeds.push_back(dy.is_null() ? b.zeros_like(in.outputs[s]).tensor : dy.tensor);
  }
  GRAPHFN_RETURN_IF_ERROR(b.status());
  for (int s : bw->saved_feeds) feeds.push_back(in.outputs[s].tensor);
  std::vector<Tensor> results;
  GRAPHFN_RETURN_IF_ERROR(bw->fn->call(feeds.data(), static_cast<int>(feeds.size()), &results));
  for (size_t i = 0; i < grads->size() && i < bw->input_grads.size(); ++i) {
    if (bw->input_grads[i] >= 0) (*grads)[i] = GradValue(results[bw->input_grads[i]]);
  }
  return Status::OK();
}

const OpDef& call_op() {
  static const OpDef* op = [] {
    auto* def = new OpDef();
    def->name = "PartitionedCall";
    def->grad_fn = call_grad;
    return def;
  }();
  return *op;
}

}  // namespace

Status CompiledFunction::Gradient::backward_with_saved(const std::vector<bool>& reached, const Backward** out) const {
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = with_saved.find(reached);
    if (it != with_saved.end()) {
      *out = it->second.get();
      return Status::OK();
    }
  }
  // Built without the lock, as CompiledFunction::gradient (a custom gradient calls Python).
  auto bw = std::make_shared<Backward>();
  std::vector<Endpoint> seeds = float_endpoints(*augmented, augmented->results, &bw->seeds, 0);
  for (size_t k = 0; k < saved.size(); ++k) {  // any dtype: a loop's saved lists get list gradients
    if (!reached[k]) continue;
    seeds.push_back(saved[k]);
    bw->seeds.push_back(num_outputs + static_cast<int>(k));
  }
  Cut cut;
  GRAPHFN_RETURN_IF_ERROR(differentiate(*augmented, seeds, sources, &cut));
  for (const Endpoint& e : cut.saved) {
    auto it = std::find(saved.begin(), saved.end(), e);
    if (it == saved.end()) {
      return errors::Unimplemented("this higher-order gradient through ", name,
                                   " needs values its forward call did not save");
    }
    bw->saved_feeds.push_back(num_outputs + static_cast<int>(it - saved.begin()));
  }
  GRAPHFN_RETURN_IF_ERROR(make_backward(cut, *this, bw.get()));
  std::lock_guard<std::mutex> lock(mu);
  std::shared_ptr<const Backward>& cached = with_saved[reached];
  if (!cached) cached = std::move(bw);
  *out = cached.get();  // entries are never removed, so the pointer stays valid
  return Status::OK();
}

Status CompiledFunction::create(std::shared_ptr<const Graph> graph, const std::string& name, const OptimizerOptions& options,
                        std::shared_ptr<const CompiledFunction>* out) {
  auto fn = std::make_shared<CompiledFunction>();
  std::unique_ptr<Graph> optimized;
  if (options.any()) {
    GRAPHFN_RETURN_IF_ERROR(optimized_copy(*graph, options, &optimized));
  }
  GRAPHFN_RETURN_IF_ERROR(Plan::build(optimized ? *optimized : *graph, &fn->plan_, name));
  fn->graph_ = std::move(graph);
  fn->name_ = name;
  fn->options_ = options;
  std::vector<const void*> seen;
  for (int id = 0; id < fn->graph_->num_nodes(); ++id) {
    const void* r = resource_of(*fn->graph_, Endpoint{id, 0});
    if (!r || std::find(seen.begin(), seen.end(), r) != seen.end()) continue;
    seen.push_back(r);
    fn->captured_.push_back(Endpoint{id, 0});
    fn->captured_handles_.push_back(*fn->graph_->node(id).const_value());
  }
  *out = std::move(fn);
  return Status::OK();
}

Status CompiledFunction::gradient(const std::vector<bool>& tracked, std::shared_ptr<const Gradient>* out) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = gradients_.find(tracked);
    if (it != gradients_.end()) {
      *out = it->second;
      return Status::OK();
    }
  }
  // Built without the lock: a custom gradient calls back into Python, which takes the GIL, and
  // another thread holding the GIL may be waiting for this lock. Two threads may build the same
  // gradient; the first one stored is kept.
  auto g = std::make_shared<Gradient>();
  g->name = name_;
  g->options = options_;
  g->num_outputs = static_cast<int>(graph_->results.size());
  g->num_inputs = static_cast<int>(tracked.size());
  std::vector<Endpoint> inputs;
  for (int arg : graph_->arguments) inputs.push_back(Endpoint{arg, 0});
  inputs.insert(inputs.end(), captured_.begin(), captured_.end());
  for (size_t i = 0; i < inputs.size() && i < tracked.size(); ++i) {
    if (!tracked[i]) continue;
    g->sources.push_back(inputs[i]);
    g->source_inputs.push_back(static_cast<int>(i));
  }
  const std::vector<Endpoint> seeds = float_endpoints(*graph_, graph_->results, &g->backward.seeds, 0);
  Cut cut;
  GRAPHFN_RETURN_IF_ERROR(differentiate(*graph_, seeds, g->sources, &cut));
  g->saved = cut.saved;
  for (size_t k = 0; k < cut.saved.size(); ++k) g->backward.saved_feeds.push_back(g->num_outputs + static_cast<int>(k));
  GRAPHFN_RETURN_IF_ERROR(make_backward(cut, *g, &g->backward));
  // The forward plan: the (possibly rewritten) graph, returning the saved values too.
  std::unique_ptr<Graph> forward = cut.forward->clone();
  forward->results.insert(forward->results.end(), cut.saved.begin(), cut.saved.end());
  std::unique_ptr<Graph> optimized;
  if (options_.any()) {
    GRAPHFN_RETURN_IF_ERROR(optimized_copy(*forward, options_, &optimized));
  }
  GRAPHFN_RETURN_IF_ERROR(Plan::build(optimized ? *optimized : *forward, &g->forward, name_));
  g->augmented = std::move(cut.forward);
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<const Gradient>& cached = gradients_[tracked];
  if (!cached) {
    cached = std::move(g);
    ++gradient_builds_;
  }
  *out = cached;
  return Status::OK();
}

int CompiledFunction::num_gradient_builds() const {
  std::lock_guard<std::mutex> lock(mu_);
  return gradient_builds_;
}

bool CompiledFunction::may_record(const Tensor* const* inputs, int num_inputs) const {
  if (!any_tape_active()) return false;
  for (int i = 0; i < num_inputs; ++i) {
    if (inputs[i]->id_if_any() != 0) return true;
  }
  for (const Tensor& h : captured_handles_) {
    if (h.id_if_any() != 0) return true;
  }
  return false;
}

bool CompiledFunction::may_record(const Tensor* inputs, int num_inputs) const {
  if (!any_tape_active()) return false;
  for (int i = 0; i < num_inputs; ++i) {
    if (inputs[i].id_if_any() != 0) return true;
  }
  for (const Tensor& h : captured_handles_) {
    if (h.id_if_any() != 0) return true;
  }
  return false;
}

Status CompiledFunction::call(const Tensor* inputs, int num_inputs, std::vector<Tensor>* outputs) const {
  if (may_record(inputs, num_inputs)) {
    std::vector<Tensor> entry(inputs, inputs + num_inputs);
    entry.insert(entry.end(), captured_handles_.begin(), captured_handles_.end());
    std::vector<bool> tracked;
    if (tapes_would_record(entry.data(), static_cast<int>(entry.size()), &tracked)) {
      std::shared_ptr<const Gradient> g;
      GRAPHFN_RETURN_IF_ERROR(gradient(tracked, &g));
      GRAPHFN_RETURN_IF_ERROR(g->forward->run(inputs, num_inputs, outputs));
      record_on_tapes(call_op(), entry.data(), static_cast<int>(entry.size()), AttrMap(), outputs, g);
      outputs->resize(g->num_outputs);
      return Status::OK();
    }
  }
  GRAPHFN_RETURN_IF_ERROR(plan_->run(inputs, num_inputs, outputs));
  for (Tensor& t : *outputs) t.clear_id();  // new tensors, though a result may forward an input's buffer
  return Status::OK();
}

Status CompiledFunction::call_unrecorded(const Tensor* const* inputs, int num_inputs,
                                         std::vector<Tensor>* outputs) const {
  GRAPHFN_RETURN_IF_ERROR(plan_->run_in_place(inputs, num_inputs, outputs));
  for (Tensor& t : *outputs) t.clear_id();  // new tensors, though a result may forward an input's buffer
  return Status::OK();
}

}  // namespace graphfn
