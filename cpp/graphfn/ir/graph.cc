#include "graphfn/ir/graph.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <iterator>
#include <optional>

#include "graphfn/ir/node_summary.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/op_validation.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ir/shape_value.h"
#include "graphfn/ir/type_check.h"

namespace graphfn {

const Tensor* Node::const_value() const {
  return op && op->name == "Const" ? attrs.get_tensor("value") : nullptr;
}

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

Graph::Names& Graph::mutable_names() {
  if (names_.use_count() > 1) names_ = std::make_shared<Names>(*names_);
  return *names_;
}

Node& Graph::mutable_node(int id) {
  std::shared_ptr<Node>& node = nodes_[id];
  if (node.use_count() > 1) node = std::make_shared<Node>(*node);
  return *node;
}

std::string Graph::unique_name(const std::string& hint) {
  const std::string base_key = lower(hint);
  auto& names_in_use = mutable_names().in_use;
  int& count = names_in_use[base_key];
  const int i = count++;
  if (i == 0) return hint;
  // Find the first free "hint_<k>", k >= i, and reserve it too.
  for (int k = i;; ++k) {
    const std::string key = base_key + "_" + std::to_string(k);
    if (!names_in_use.count(key)) {
      names_in_use[key] = 1;
      return hint + "_" + std::to_string(k);
    }
  }
}

int Graph::find_node(const std::string& name) const {
  auto it = names_->by_name.find(name);
  return it == names_->by_name.end() ? -1 : it->second;
}

namespace {

// Flat position of declared input k (list inputs expand to several positions).
int flat_position(const OpDef& op, int k, int num_inputs) {
  const int n_list = num_inputs - op.num_fixed_inputs;
  int pos = 0;
  for (int i = 0; i < k; ++i) pos += op.inputs[i].is_list() ? n_list : 1;
  return pos;
}

Tensor shape_as_tensor(const Shape& shape, DType dtype) {
  Tensor t(dtype, Shape{shape.rank()});
  for (int d = 0; d < shape.rank(); ++d) {
    if (dtype == DType::kInt32) {
      t.data<int32_t>()[d] = static_cast<int32_t>(shape.dim(d));
    } else {
      t.data<int64_t>()[d] = shape.dim(d);
    }
  }
  return t;
}

bool shape_fn_applies(const OpDef& op, const std::vector<InputInfo>& infos) {
  const int n = static_cast<int>(infos.size());
  for (int k : op.value_inputs) {
    if (op.inputs[k].is_list()) return false;
    // A shape input read as a value still gives its partial shape when not constant (a transposed
    // convolution's output_shape built from tf.shape(x)): the shape function takes that.
    const bool partial_shape = std::find(op.shape_inputs.begin(), op.shape_inputs.end(), k) != op.shape_inputs.end();
    if (!infos[flat_position(op, k, n)].value && !(partial_shape && op.handles_partial_shapes)) return false;
  }
  if (op.handles_partial_shapes) return true;
  for (const InputInfo& info : infos) {
    if (!info.shape->fully_defined()) return false;
  }
  return true;
}

// Outputs of known dtype and unknown shape, for when the shape function cannot run.
void unknown_outputs(const OpDef& op, const AttrMap& attrs, const DType* type_attrs, InferenceOutputs* out) {
  for (const ArgDef& arg : op.outputs) {
    const int count = arg.number_attr.empty() ? 1 : static_cast<int>(attrs.get_int(arg.number_attr, 0));
    const int type_index = op.type_attr_index(arg.type_attr);
    const DType dt = arg.fixed_type != DType::kInvalid ? arg.fixed_type
                                                         : (type_index >= 0 ? type_attrs[type_index] : DType::kInvalid);
    for (int i = 0; i < count; ++i) {
      out->dtypes.push_back(dt);
      out->shapes.push_back(Shape::unknown_rank());
    }
  }
}

}  // namespace

std::string Graph::describe_shape_error(const OpDef& op, const std::string& name, const std::vector<Endpoint>& inputs,
                                        AttrMap attrs, const DType* type_attrs, const std::vector<InputInfo>& infos,
                                        const InferenceContext& ic, const std::string& message) const {
  std::vector<std::string> input_names;
  for (const Endpoint& e : inputs) {
    input_names.push_back(nodes_[e.node]->name + (e.index ? ":" + std::to_string(e.index) : ""));
  }
  for (size_t i = 0; i < op.type_attr_names.size(); ++i) attrs.set(op.type_attr_names[i], type_attrs[i]);
  // Inputs whose values the shape function read: shape inputs as partial shapes, others as values.
  std::vector<bool> shape_input(inputs.size(), false);
  for (int k : op.shape_inputs) {
    if (!op.inputs[k].is_list()) shape_input[flat_position(op, k, static_cast<int>(inputs.size()))] = true;
  }
  std::vector<int> values;
  std::vector<std::pair<int, Shape>> partial_shapes;
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    if (!ic.value_was_read(i)) continue;
    if (shape_input[i]) {
      if (infos[i].shape_value) {
        partial_shapes.emplace_back(i, *infos[i].shape_value);
      } else if (infos[i].value) {
        std::vector<int64_t> dims;
        if (tensor_to_int64s(*infos[i].value, &dims).ok()) partial_shapes.emplace_back(i, Shape(dims));
      }
    } else if (infos[i].value) {
      values.push_back(i);
    }
  }
  return shape_error_message(message, node_summary(op, name, input_names, attrs), infos.data(),
                             static_cast<int>(infos.size()), values, partial_shapes);
}

Status Graph::add_node(const std::string& op_name, const std::string& name,
                       const std::vector<Endpoint>& inputs, AttrMap attrs, int* id) {
  const OpDef* op = OpRegistry::global().find(op_name);
  if (!op) return errors::NotFound("Op type not registered '", op_name, "'");
  return add_node(*op, name, inputs, std::move(attrs), id);
}

Status Graph::add_node(const OpDef& op, const std::string& name, const std::vector<Endpoint>& inputs,
                       AttrMap attrs, int* id, bool name_reserved, Failure* failure) {
  if (failure) *failure = Failure::kOther;
  const int n = static_cast<int>(inputs.size());
  std::vector<DType> dtypes(n);
  std::vector<InputInfo> infos(n);
  for (int i = 0; i < n; ++i) {
    const Endpoint e = inputs[i];
    if (e.node < 0 || e.node >= num_nodes() || e.index < 0 ||
        e.index >= static_cast<int>(nodes_[e.node]->output_dtypes.size())) {
      return errors::InvalidArgument("Node input ", i, " of ", op.name, " refers to no output");
    }
    const Node& src = *nodes_[e.node];
    dtypes[i] = src.output_dtypes[e.index];
    const AttrValue* handle_shape = src.attrs.find("_handle_shape");
    infos[i] = InputInfo{dtypes[i], &src.output_shapes[e.index], src.const_value(),
                         handle_shape && std::holds_alternative<Shape>(*handle_shape)
                             ? &std::get<Shape>(*handle_shape) : nullptr};
  }
  std::string invalid_text;
  Status valid = validate_op_call(op, dtypes.data(), n, attrs, failure ? &invalid_text : nullptr);
  if (!valid.ok()) {
    // TF's graph building raises what its op wrappers check (list lengths, minimums) as ValueError.
    if (failure && !invalid_text.empty()) {
      *failure = Failure::kShapeFunction;
      return Status(valid.code(), invalid_text);
    }
    return valid;
  }
  DType type_attrs[kMaxTypeAttrs];
  std::string type_text;
  Status typed = resolve_type_attrs(op, dtypes.data(), n, attrs, type_attrs, nullptr, failure ? &type_text : nullptr);
  if (!typed.ok()) {
    if (failure && !type_text.empty()) {
      *failure = Failure::kInputType;
      return Status(typed.code(), type_text);
    }
    return typed;
  }
  std::vector<Tensor> derived_values;
  std::vector<Shape> derived_shapes;
  derived_values.reserve(op.shape_inputs.size());  // stable addresses for the infos
  derived_shapes.reserve(op.shape_inputs.size());
  for (int k : op.shape_inputs) {
    if (op.inputs[k].is_list()) continue;
    const int pos = flat_position(op, k, n);
    InputInfo& info = infos[pos];
    if (info.value) continue;
    std::optional<Shape> value = partial_shape_value(*this, inputs[pos]);
    if (!value) continue;
    if (value->fully_defined() && (info.dtype == DType::kInt32 || info.dtype == DType::kInt64)) {
      // Fully derived: exactly the value the input will have, so shape functions see a constant.
      info.value = &derived_values.emplace_back(shape_as_tensor(*value, info.dtype));
    } else {
      info.shape_value = &derived_shapes.emplace_back(std::move(*value));
    }
  }

  InferenceOutputs outputs;
  if (op.shape_fn && shape_fn_applies(op, infos)) {
    InferenceContext ic(op, infos.data(), n, attrs, type_attrs, &outputs);
    Status inferred = op.shape_fn(ic);
    if (!inferred.ok()) {
      if (!failure || inferred.code() != Code::kInvalidArgument) return inferred;
      *failure = Failure::kShapeFunction;
      return Status(inferred.code(), describe_shape_error(op, name, inputs, attrs, type_attrs, infos, ic,
                                                          inferred.message()));
    }
  } else {
    unknown_outputs(op, attrs, type_attrs, &outputs);
  }
  // Every output a caller can take must exist: a shape function that made fewer or more than the
  // signature declares would leave symbolic tensors pointing at nothing.
  const int declared_outputs = expected_num_outputs(op, attrs);
  if (declared_outputs >= 0 && declared_outputs != static_cast<int>(outputs.dtypes.size())) {
    return errors::InvalidArgument(op.name, " node '", name, "' has ", outputs.dtypes.size(),
                                   " outputs but its signature declares ", declared_outputs);
  }

  auto node = std::make_shared<Node>();
  node->id = num_nodes();
  node->name = name_reserved ? name : unique_name(name.empty() ? op.name : name);
  node->op = &op;
  node->inputs = inputs;
  for (size_t i = 0; i < op.type_attr_names.size(); ++i) {
    node->type_attrs.push_back(type_attrs[i]);
    attrs.set(op.type_attr_names[i], type_attrs[i]);
  }
  // The attrs a list input decides, when not given: its dtypes (list(type)) or its length (a
  // number attr), as TF's NodeDef records them.
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    const ArgDef& arg = op.inputs[k];
    if (!arg.is_list()) continue;
    const int pos = flat_position(op, static_cast<int>(k), n);
    const int count = n - op.num_fixed_inputs;
    if (arg.type_list && !attrs.find(arg.type_attr)) {
      attrs.set(arg.type_attr, std::vector<DType>(dtypes.begin() + pos, dtypes.begin() + pos + count));
    } else if (!arg.number_attr.empty() && !attrs.find(arg.number_attr)) {
      attrs.set(arg.number_attr, static_cast<int64_t>(count));
    }
  }
  node->attrs = std::move(attrs);
  node->output_dtypes = std::move(outputs.dtypes);
  node->output_shapes = std::move(outputs.shapes);
  if (observer) observer->node_added(*node);
  mutable_names().by_name[node->name] = node->id;
  *id = node->id;
  nodes_.push_back(std::move(node));
  return Status::OK();
}

Status Graph::add_const(const Tensor& value, const std::string& name, int* id) {
  AttrMap attrs;
  attrs.set("value", value);
  attrs.set("dtype", value.dtype());
  return add_node("Const", name, {}, std::move(attrs), id);
}

Status Graph::add_placeholder(DType dtype, const Shape& shape, const std::string& name, int* id) {
  AttrMap attrs;
  attrs.set("dtype", dtype);
  attrs.set("shape", shape);
  return add_node("Placeholder", name, {}, std::move(attrs), id);
}

void Graph::add_control_input(int node, int dependency) {
  auto& deps = mutable_node(node).control_inputs;
  for (int d : deps) {
    if (d == dependency) return;
  }
  deps.push_back(dependency);
}

Graph::Graph() {
  static std::atomic<uint64_t> next_lineage{1};
  lineage_ = next_lineage.fetch_add(1, std::memory_order_relaxed);
}

std::unique_ptr<Graph> Graph::clone() const {
  auto copy = std::make_unique<Graph>();
  copy->lineage_ = lineage_;
  copy->nodes_ = nodes_;
  copy->names_ = names_;
  copy->arguments = arguments;
  copy->results = results;
  return copy;
}

std::unique_ptr<Graph> Graph::clone_prefix(int num_nodes) const {
  std::unique_ptr<Graph> copy = clone();
  if (num_nodes >= this->num_nodes()) return copy;
  copy->nodes_.resize(num_nodes);
  auto& by_name = copy->mutable_names().by_name;  // names stay reserved; lookups forget the dropped
  for (auto it = by_name.begin(); it != by_name.end();) {
    it = it->second >= num_nodes ? by_name.erase(it) : std::next(it);
  }
  auto& args = copy->arguments;
  args.erase(std::remove_if(args.begin(), args.end(), [&](int a) { return a >= num_nodes; }), args.end());
  auto& res = copy->results;
  res.erase(std::remove_if(res.begin(), res.end(), [&](const Endpoint& e) { return e.node >= num_nodes; }), res.end());
  return copy;
}

void Graph::replace_with_const(int id, const Tensor& value) {
  static const OpDef* const_op = OpRegistry::global().find("Const");
  auto node = std::make_shared<Node>();
  node->id = id;
  node->name = nodes_[id]->name;
  node->op = const_op;
  node->control_inputs = nodes_[id]->control_inputs;
  node->attrs.set("value", value);
  node->attrs.set("dtype", value.dtype());
  node->type_attrs = {value.dtype()};
  node->output_dtypes = {value.dtype()};
  node->output_shapes = {value.shape()};
  nodes_[id] = std::move(node);
}

bool Graph::is_stateful() const {
  for (const auto& node : nodes_) {
    if (node->op->stateful || node->op->resource_access != OpDef::ResourceAccess::kNone) return true;
  }
  bool stateful = false;
  for_each_subgraph([&](const Node&, const FuncAttr& f) { stateful = stateful || f.graph->is_stateful(); });
  return stateful;
}

std::string Graph::to_text() const {
  std::string out;
  for (const auto& node : nodes_) {
    out += node->name + " = " + node->op->name;
    if (!node->type_attrs.empty()) {
      out += "[";
      for (size_t i = 0; i < node->type_attrs.size(); ++i) {
        out += (i ? ", " : "") + node->op->type_attr_names[i] + "=" + dtype_name(node->type_attrs[i]);
      }
      out += "]";
    }
    out += "(";
    for (size_t i = 0; i < node->inputs.size(); ++i) {
      const Endpoint e = node->inputs[i];
      out += (i ? ", " : "") + nodes_[e.node]->name + (e.index ? ":" + std::to_string(e.index) : "");
    }
    for (int c : node->control_inputs) out += ", ^" + nodes_[c]->name;
    out += ") ->";
    for (size_t i = 0; i < node->output_dtypes.size(); ++i) {
      out += std::string(i ? ", " : " ") + dtype_name(node->output_dtypes[i]) + node->output_shapes[i].to_string();
    }
    out += "\n";
  }
  return out;
}

std::vector<bool> needed_nodes(const Graph& graph, const std::vector<Endpoint>& roots) {
  std::vector<bool> needed(graph.num_nodes(), false);
  std::vector<int> stack;
  for (const Endpoint& e : roots) stack.push_back(e.node);
  for (int i = 0; i < graph.num_nodes(); ++i) {
    if (graph.node(i).op->stateful) stack.push_back(i);
  }
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    if (needed[id]) continue;
    needed[id] = true;
    // Control inputs are not followed: the stateful ones run anyway (and plans run nodes in
    // creation order, which respects every control edge), while a pure node whose outputs only
    // feed control edges has no effect: TF's grappler turns it into a NoOp, so it never fails.
    for (const Endpoint& in : graph.node(id).inputs) stack.push_back(in.node);
  }
  return needed;
}

}  // namespace graphfn
