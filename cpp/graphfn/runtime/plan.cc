#include "graphfn/runtime/plan.h"

#include "graphfn/runtime/eager.h"

namespace graphfn {
namespace {

// Marks the nodes that must run: those the results depend on, every stateful node, and
// (transitively) their data and control inputs.
std::vector<bool> needed_nodes(const Graph& graph, const std::vector<Endpoint>& results) {
  std::vector<bool> needed(graph.num_nodes(), false);
  std::vector<int> stack;
  for (const Endpoint& e : results) stack.push_back(e.node);
  for (int i = 0; i < graph.num_nodes(); ++i) {
    if (graph.node(i).op->stateful) stack.push_back(i);
  }
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    if (needed[id]) continue;
    needed[id] = true;
    for (const Endpoint& in : graph.node(id).inputs) stack.push_back(in.node);
    for (int c : graph.node(id).control_inputs) stack.push_back(c);
  }
  return needed;
}

}  // namespace

Status Plan::build(const Graph& graph, std::shared_ptr<const Plan>* out, const std::string& name) {
  return build(graph, graph.arguments, graph.results, out, name);
}

Status Plan::build(const Graph& graph, const std::vector<int>& arguments, const std::vector<Endpoint>& results,
                   std::shared_ptr<const Plan>* out, const std::string& name) {
  auto plan = std::make_shared<Plan>();
  plan->name_ = name;
  std::vector<int> first_slot(graph.num_nodes());
  for (int i = 0; i < graph.num_nodes(); ++i) {
    first_slot[i] = plan->num_slots_;
    plan->num_slots_ += static_cast<int>(graph.node(i).output_dtypes.size());
  }
  const std::vector<bool> needed = needed_nodes(graph, results);
  std::vector<bool> is_argument(graph.num_nodes(), false);
  for (int arg : arguments) {
    is_argument[arg] = true;
    plan->feed_slots_.push_back(first_slot[arg]);
    plan->feed_dtypes_.push_back(graph.node(arg).output_dtypes[0]);
    plan->feed_shapes_.push_back(graph.node(arg).output_shapes[0]);
  }
  for (int i = 0; i < graph.num_nodes(); ++i) {
    const Node& node = graph.node(i);
    if (!needed[i] || is_argument[i]) continue;
    if (const Tensor* value = node.const_value()) {
      plan->constants_.emplace_back(first_slot[i], *value);
      continue;
    }
    Step step;
    step.op = node.op;
    step.node_name = node.name;
    step.attrs = node.attrs;
    for (size_t t = 0; t < node.type_attrs.size(); ++t) step.type_attrs[t] = node.type_attrs[t];
    GRAPHFN_RETURN_IF_ERROR(find_kernel(*node.op, step.type_attrs, &step.kernel));
    for (const Endpoint& in : node.inputs) step.input_slots.push_back(first_slot[in.node] + in.index);
    step.first_output_slot = first_slot[i];
    step.num_outputs = static_cast<int>(node.output_dtypes.size());
    // Static only if the inputs' traced shapes were fully known too: then, with static feeds,
    // the run-time input shapes are exactly the traced ones (data-dependent shapes never are).
    step.static_outputs = !node.output_shapes.empty();
    for (const Shape& s : node.output_shapes) step.static_outputs = step.static_outputs && s.fully_defined();
    for (const Endpoint& in : node.inputs) step.static_outputs = step.static_outputs && graph.shape(in).fully_defined();
    if (step.static_outputs) {
      step.output_dtypes = node.output_dtypes;
      step.output_shapes = node.output_shapes;
    }
    plan->steps_.push_back(std::move(step));
  }
  for (const Endpoint& e : results) plan->result_slots_.push_back(first_slot[e.node] + e.index);
  plan->schedule_releases();
  *out = std::move(plan);
  return Status::OK();
}

Status Plan::run(const Tensor* feeds, int num_feeds, std::vector<Tensor>* results) const {
  if (num_feeds != static_cast<int>(feed_slots_.size())) {
    return errors::InvalidArgument(name_, " expects ", feed_slots_.size(), " inputs, got ", num_feeds);
  }
  std::vector<Tensor> slots(num_slots_);
  for (int i = 0; i < num_feeds; ++i) {
    if (feeds[i].dtype() != feed_dtypes_[i]) {
      return errors::InvalidArgument("cannot compute ", name_, " as input #", i, "(zero-based) was expected to be a ",
                                     dtype_tf_string(feed_dtypes_[i]), " tensor but is a ",
                                     dtype_tf_string(feeds[i].dtype()), " tensor [Op:", name_, "]");
    }
    slots[feed_slots_[i]] = feeds[i];
  }
  for (const auto& [slot, value] : constants_) slots[slot] = value;

  // Static shapes hold when every feed has exactly its traced (fully known) shape.
  bool feeds_static = true;
  for (int i = 0; i < num_feeds; ++i) feeds_static = feeds_static && feeds[i].shape() == feed_shapes_[i];
  std::vector<const Tensor*> inputs;
  std::vector<Tensor> outputs;
  for (const Step& step : steps_) {
    inputs.clear();
    for (int s : step.input_slots) inputs.push_back(&slots[s]);
    const int n = static_cast<int>(inputs.size());
    Status s = feeds_static && step.static_outputs
                   ? run_kernel_with_shapes(*step.op, step.kernel, inputs.data(), n, step.attrs, step.type_attrs,
                                            step.output_dtypes, step.output_shapes, &outputs, &step)
                   : run_kernel(*step.op, step.kernel, inputs.data(), n, step.attrs, step.type_attrs, &outputs, &step);
    if (!s.ok()) {
      // TF's text, less the Python traceback of where the node was defined.
      return Status(s.code(), "Graph execution error:\n\nDetected at node " + step.node_name + ":\n" + s.message() +
                                  "\n\t [[{{node " + step.node_name + "}}]] [Op:" + name_ + "]");
    }
    for (size_t k = 0; k < outputs.size(); ++k) slots[step.first_output_slot + k] = std::move(outputs[k]);
    for (int slot : step.release_after) slots[slot] = Tensor();
  }
  results->resize(result_slots_.size());
  for (size_t i = 0; i < result_slots_.size(); ++i) (*results)[i] = slots[result_slots_[i]];
  return Status::OK();
}

void Plan::schedule_releases() {
  constexpr int kNever = -1;
  std::vector<int> last_reader(num_slots_, kNever);
  for (int i = 0; i < num_steps(); ++i) {
    for (int slot : steps_[i].input_slots) last_reader[slot] = i;
  }
  std::vector<bool> kept(num_slots_, false);  // results are returned, not released
  for (int slot : result_slots_) kept[slot] = true;
  for (int i = 0; i < num_steps(); ++i) {
    Step& step = steps_[i];
    auto release = [&](int slot) {
      if (kept[slot]) return;
      kept[slot] = true;  // once (a step may read a slot twice)
      step.release_after.push_back(slot);
    };
    for (int slot : step.input_slots) {
      if (last_reader[slot] == i) release(slot);
    }
    // Outputs that nothing reads (a stateful op's unused value) go as soon as they are made.
    for (int k = 0; k < step.num_outputs; ++k) {
      if (last_reader[step.first_output_slot + k] == kNever) release(step.first_output_slot + k);
    }
  }
}

std::vector<std::string> Plan::step_names() const {
  std::vector<std::string> names;
  for (const Step& s : steps_) names.push_back(s.node_name);
  return names;
}

}  // namespace graphfn
