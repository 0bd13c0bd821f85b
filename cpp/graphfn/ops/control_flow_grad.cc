// Gradients of functional control flow (ops/control_flow_ops.cc), built like TF's cond_v2 and
// while_v2 with the graph differentiation functions use (ir/symbolic_gradients.h); they need a
// GraphGradBuilder (cond and while_loop only make these nodes while tracing).
//
// If / Case: each branch is differentiated on its own, and the gradient is an If / Case on the
// same selector over the gradient branches. A gradient branch reads the forward inputs it needs
// (inputs of the gradient node) and values computed inside its forward branch: those become extra
// outputs of the forward node (the other branches output a placeholder zero there), which is
// rewritten in place. Every gradient branch returns a gradient for every input some branch
// differentiates (zeros where its own branch does not use it).
//
// While: the body is differentiated once, and the gradient is a While that runs the body's
// gradient as many times as the forward loop ran (its counter output), last iteration first.
// Values the body's gradient reads are saved per iteration: the forward node is rewritten to
// give its body extra results, which the loop accumulates into TensorLists (extra outputs, see
// runtime/plan.cc); the backward body reads them with TensorListGetItem. Loop-invariant inputs
// (captured tensors) are read directly, and their gradients are summed across iterations as
// loop variables passed through unchanged.
#include <algorithm>
#include <atomic>
#include <map>

#include "graphfn/core/resource.h"
#include "graphfn/ir/graph_copy.h"
#include "graphfn/ir/graph_grad_builder.h"
#include "graphfn/ir/symbolic_gradients.h"
#include "graphfn/ops/grad_util.h"

namespace graphfn {
namespace {

using Grads = std::vector<GradValue>;

std::atomic<int> g_grad_uid{1};

std::string grad_function_name(const std::string& forward) { return forward + "_grad_" + std::to_string(g_grad_uid++); }

bool is_float(DType dt) { return dt == DType::kFloat32 || dt == DType::kFloat64; }

Status need_graph_builder(GradBuilder& b, const GradInputs& in, GraphGradBuilder** gb) {
  *gb = dynamic_cast<GraphGradBuilder*>(&b);
  if (!*gb || in.node < 0) return errors::Unimplemented("the gradient of ", in.op->name, " needs a graph");
  return Status::OK();
}

// A zero scalar of `dt` (a null handle for resources): what a branch outputs in place of an
// intermediate value another branch computes.
Tensor placeholder_zero(DType dt) {
  if (dt == DType::kString || dt == DType::kResource) return Tensor(dt, Shape());
  return scalar_tensor(dt, 0);
}

// The most specific shape both satisfy.
Shape common_shape(const Shape& a, const Shape& b) {
  if (!a.known_rank() || !b.known_rank() || a.rank() != b.rank()) return Shape::unknown_rank();
  Shape out = a;
  for (int i = 0; i < a.rank(); ++i) {
    if (a.dim(i) != b.dim(i)) out.set_dim(i, Shape::kUnknownDim);
  }
  return out;
}

// The shape of the value behind a resource endpoint (a captured variable), if known.
bool variable_shape(const Graph& g, Endpoint e, Shape* shape) {
  const Node& node = g.node(e.node);
  if (const AttrValue* attr = node.attrs.find("_handle_shape")) {
    if (const Shape* s = std::get_if<Shape>(attr)) {
      *shape = *s;
      return s->known_rank() && s->fully_defined();
    }
  }
  if (const Tensor* value = node.const_value(); value && value->dtype() == DType::kResource) {
    if (auto var = std::dynamic_pointer_cast<VariableResource>(*value->data<ResourceHandle>())) {
      *shape = var->shape();
      return true;
    }
  }
  return false;
}

// Zeros shaped like the gradient of `like` (an input of dtype `like_dt`), of dtype `dt`, in `g`.
Status zeros_for(Graph& g, Endpoint like, DType dt, const std::string& scope, Endpoint* out) {
  GraphGradBuilder b(&g, scope);
  GradValue z;
  if (g.dtype(like) == DType::kResource && dt != DType::kResource) {
    Shape shape;
    if (!variable_shape(g, like, &shape)) {
      return errors::Unimplemented("the gradient of a variable of unknown shape through control flow");
    }
    std::vector<int64_t> dims(shape.dims().begin(), shape.dims().end());
    z = b.op("Fill", {b.int_vector(dims), b.scalar(dt, 0)});
  } else {
    z = b.zeros_like(GradValue(like));
  }
  GRAPHFN_RETURN_IF_ERROR(b.status());
  *out = z.endpoint;
  return Status::OK();
}

// A subgraph differentiated: `combined` is the forward subgraph with gradient nodes appended,
// seeded with placeholders `dys` at `targets`; `grads` has one entry per argument (node -1: none).
struct Differentiated {
  std::unique_ptr<Graph> combined;
  int num_forward = 0;
  std::vector<Endpoint> dys;
  std::vector<Endpoint> grads;
};

Status differentiate_subgraph(const Graph& graph, const std::vector<int>& result_indices,
                              const std::vector<DType>& dy_dtypes, const std::vector<Shape>& dy_shapes,
                              Differentiated* out) {
  out->combined = graph.clone();
  Graph& c = *out->combined;
  out->num_forward = c.num_nodes();
  GradientRequest request;
  for (size_t k = 0; k < result_indices.size(); ++k) {
    int id = -1;
    GRAPHFN_RETURN_IF_ERROR(c.add_placeholder(dy_dtypes[k], dy_shapes[k], "dy", &id));
    request.targets.push_back(c.results[result_indices[k]]);
    request.target_grads.push_back(Endpoint{id, 0});
  }
  out->dys = request.target_grads;
  for (int arg : c.arguments) request.sources.push_back(Endpoint{arg, 0});
  return add_gradients(c, request, &out->grads);
}

int argument_index(const Graph& g, Endpoint e) {
  if (e.index != 0) return -1;
  for (size_t i = 0; i < g.arguments.size(); ++i) {
    if (g.arguments[i] == e.node) return static_cast<int>(i);
  }
  return -1;
}

int result_index(const Graph& g, Endpoint e) {
  for (size_t i = 0; i < g.results.size(); ++i) {
    if (g.results[i] == e) return static_cast<int>(i);
  }
  return -1;
}

// ----------------------------------------------------------------------------------- If / Case

struct BranchAttr {
  std::string attr;  // then_branch, else_branch, or branches[k]
  FuncAttr func;
};

std::vector<BranchAttr> branches_of(const Node& node) {
  std::vector<BranchAttr> out;
  if (node.op->control_flow == OpDef::ControlFlow::kIf) {
    out.push_back({"then_branch", *node.attrs.get_func("then_branch")});
    out.push_back({"else_branch", *node.attrs.get_func("else_branch")});
  } else {
    for (const FuncAttr& f : *node.attrs.get_func_list("branches")) out.push_back({"branches", f});
  }
  return out;
}

Status branch_grad(GradBuilder& b, const GradInputs& in, Grads* grads) {
  GraphGradBuilder* gb = nullptr;
  GRAPHFN_RETURN_IF_ERROR(need_graph_builder(b, in, &gb));
  Graph& g = gb->graph();
  const int id = in.node;
  const Node& node = g.node(id);
  const bool is_if = node.op->control_flow == OpDef::ControlFlow::kIf;
  const std::vector<BranchAttr> branches = branches_of(node);
  const int num_args = static_cast<int>(node.inputs.size()) - 1;
  const int num_outputs = static_cast<int>(node.output_dtypes.size());

  std::vector<int> seeded;  // outputs whose gradient is fed
  std::vector<DType> dy_dtypes;
  std::vector<Shape> dy_shapes;
  for (int j = 0; j < num_outputs; ++j) {
    if (in.output_grads[j].is_null() || !is_float(node.output_dtypes[j])) continue;
    seeded.push_back(j);
    dy_dtypes.push_back(g.dtype(in.output_grads[j].endpoint));
    dy_shapes.push_back(node.output_shapes[j]);
  }
  if (seeded.empty()) return Status::OK();

  std::vector<Differentiated> diffs(branches.size());
  for (size_t k = 0; k < branches.size(); ++k) {
    GRAPHFN_RETURN_IF_ERROR(differentiate_subgraph(*branches[k].func.graph, seeded, dy_dtypes, dy_shapes, &diffs[k]));
  }
  // Inputs some branch gives a gradient, with that gradient's dtype.
  std::vector<int> differentiated;
  std::vector<DType> grad_dtypes;
  for (int i = 0; i < num_args; ++i) {
    for (const Differentiated& d : diffs) {
      if (d.grads[i].node < 0) continue;
      differentiated.push_back(i);
      grad_dtypes.push_back(d.combined->dtype(d.grads[i]));
      break;
    }
  }
  if (differentiated.empty()) return Status::OK();

  // Cut each gradient branch out; collect the forward inputs and intermediates they read.
  struct Cut {
    std::unique_ptr<Graph> graph = std::make_unique<Graph>();
    std::vector<int> dy_args;
    std::map<int, int> input_args;  // forward input -> placeholder
    std::map<int, int> value_args;  // index into `values` -> placeholder
  };
  struct Value {  // an intermediate of branch k that a gradient branch reads
    size_t branch;
    Endpoint endpoint;
    int output = -1;  // the forward node's output giving it
  };
  std::vector<Value> values;
  std::vector<Cut> cuts(branches.size());
  std::vector<std::vector<Endpoint>> roots(branches.size());
  for (size_t k = 0; k < branches.size(); ++k) {
    Graph& c = *diffs[k].combined;
    Cut& cut = cuts[k];
    EndpointMap mapped;
    for (size_t s = 0; s < seeded.size(); ++s) {
      int ph = -1;
      GRAPHFN_RETURN_IF_ERROR(cut.graph->add_placeholder(dy_dtypes[s], dy_shapes[s], "dy", &ph));
      cut.dy_args.push_back(ph);
      mapped[diffs[k].dys[s]] = Endpoint{ph, 0};
    }
    auto input_placeholder = [&](int i, Endpoint* r) -> Status {
      auto it = cut.input_args.find(i);
      if (it == cut.input_args.end()) {
        int ph = -1;
        const Endpoint outer = node.inputs[1 + i];
        GRAPHFN_RETURN_IF_ERROR(cut.graph->add_placeholder(g.dtype(outer), g.shape(outer), "input", &ph));
        Shape handle_shape;
        if (g.dtype(outer) == DType::kResource && variable_shape(g, outer, &handle_shape)) {
          cut.graph->mutable_node(ph).attrs.set("_handle_shape", handle_shape);
        }
        it = cut.input_args.emplace(i, ph).first;
      }
      *r = Endpoint{it->second, 0};
      return Status::OK();
    };
    auto external = [&](Endpoint e, Endpoint* r) -> Status {
      if (c.node(e.node).const_value()) return copy_const(c, e.node, cut.graph.get(), r);
      const int arg = argument_index(c, e);
      if (arg >= 0) return input_placeholder(arg, r);
      size_t v = 0;
      while (v < values.size() && !(values[v].branch == k && values[v].endpoint == e)) ++v;
      if (v == values.size()) values.push_back(Value{k, e});
      int ph = -1;
      GRAPHFN_RETURN_IF_ERROR(cut.graph->add_placeholder(c.dtype(e), c.shape(e), c.node(e.node).name, &ph));
      cut.value_args[static_cast<int>(v)] = ph;
      *r = Endpoint{ph, 0};
      return Status::OK();
    };
    std::vector<Endpoint> present;
    for (int i : differentiated) {
      if (diffs[k].grads[i].node >= 0) present.push_back(diffs[k].grads[i]);
    }
    std::vector<Endpoint> copied;
    GRAPHFN_RETURN_IF_ERROR(copy_subgraph(c, diffs[k].num_forward, present, cut.graph.get(), &mapped, external, &copied));
    size_t next = 0;
    for (size_t t = 0; t < differentiated.size(); ++t) {
      const int i = differentiated[t];
      if (diffs[k].grads[i].node >= 0) {
        roots[k].push_back(copied[next++]);
        continue;
      }
      Endpoint like, zero;
      GRAPHFN_RETURN_IF_ERROR(input_placeholder(i, &like));
      GRAPHFN_RETURN_IF_ERROR(zeros_for(*cut.graph, like, grad_dtypes[t], "", &zero));
      roots[k].push_back(zero);
    }
  }

  // The forward node outputs the intermediates (reusing outputs that already give them).
  std::vector<std::unique_ptr<Graph>> forward(branches.size());
  for (size_t k = 0; k < branches.size(); ++k) forward[k] = diffs[k].combined->clone_prefix(diffs[k].num_forward);
  std::vector<DType> new_dtypes;
  std::vector<Shape> new_shapes;
  int next_output = num_outputs;
  for (Value& v : values) {
    v.output = result_index(*forward[v.branch], v.endpoint);
    if (v.output >= 0) continue;
    const DType dt = forward[v.branch]->dtype(v.endpoint);
    Shape shape = forward[v.branch]->shape(v.endpoint);
    for (size_t k = 0; k < branches.size(); ++k) {
      if (k == v.branch) {
        forward[k]->results.push_back(v.endpoint);
        continue;
      }
      int zero = -1;
      GRAPHFN_RETURN_IF_ERROR(forward[k]->add_const(placeholder_zero(dt), "zeros", &zero));
      forward[k]->results.push_back(Endpoint{zero, 0});
      shape = common_shape(shape, Shape());
    }
    new_dtypes.push_back(dt);
    new_shapes.push_back(shape);
    v.output = next_output++;
  }
  {
    Node& n = g.mutable_node(id);
    std::vector<DType> tout = *n.attrs.get_type_list("Tout");
    const std::vector<Shape>* given = n.attrs.get_shape_list("output_shapes");
    std::vector<Shape> shapes = given ? *given : std::vector<Shape>();
    tout.insert(tout.end(), new_dtypes.begin(), new_dtypes.end());
    if (shapes.size() + new_dtypes.size() == tout.size()) shapes.insert(shapes.end(), new_shapes.begin(), new_shapes.end());
    n.attrs.set("Tout", tout);
    n.attrs.set("output_shapes", shapes);
    if (is_if) {
      n.attrs.set("then_branch", FuncAttr{branches[0].func.name, std::move(forward[0])});
      n.attrs.set("else_branch", FuncAttr{branches[1].func.name, std::move(forward[1])});
    } else {
      std::vector<FuncAttr> funcs;
      for (size_t k = 0; k < branches.size(); ++k) funcs.push_back(FuncAttr{branches[k].func.name, std::move(forward[k])});
      n.attrs.set("branches", std::move(funcs));
    }
    n.output_dtypes.insert(n.output_dtypes.end(), new_dtypes.begin(), new_dtypes.end());
    n.output_shapes.insert(n.output_shapes.end(), new_shapes.begin(), new_shapes.end());
  }

  // The gradient node: selector, output gradients, forward inputs read, intermediates read.
  std::vector<int> inputs_read;
  for (const Cut& cut : cuts) {
    for (const auto& [i, ph] : cut.input_args) {
      if (std::find(inputs_read.begin(), inputs_read.end(), i) == inputs_read.end()) inputs_read.push_back(i);
    }
  }
  std::sort(inputs_read.begin(), inputs_read.end());
  std::vector<GradValue> grad_inputs{in.inputs[0]};
  for (int j : seeded) grad_inputs.push_back(in.output_grads[j]);
  for (int i : inputs_read) grad_inputs.push_back(in.inputs[1 + i]);
  for (const Value& v : values) grad_inputs.emplace_back(Endpoint{id, v.output});
  std::vector<DType> tin;
  for (size_t t = 1; t < grad_inputs.size(); ++t) tin.push_back(g.dtype(grad_inputs[t].endpoint));

  std::vector<FuncAttr> grad_branches;
  std::vector<Shape> out_shapes;
  bool stateful = false;
  for (size_t k = 0; k < branches.size(); ++k) {
    Cut& cut = cuts[k];
    Graph& gg = *cut.graph;
    gg.arguments = cut.dy_args;
    for (int i : inputs_read) {
      auto it = cut.input_args.find(i);
      int ph = -1;
      if (it != cut.input_args.end()) {
        ph = it->second;
      } else {
        GRAPHFN_RETURN_IF_ERROR(gg.add_placeholder(g.dtype(node.inputs[1 + i]), g.shape(node.inputs[1 + i]), "input", &ph));
      }
      gg.arguments.push_back(ph);
    }
    for (size_t v = 0; v < values.size(); ++v) {
      auto it = cut.value_args.find(static_cast<int>(v));
      int ph = -1;
      if (it != cut.value_args.end()) {
        ph = it->second;
      } else {
        GRAPHFN_RETURN_IF_ERROR(gg.add_placeholder(g.node(id).output_dtypes[values[v].output], Shape::unknown_rank(),
                                                   "unused", &ph));
      }
      gg.arguments.push_back(ph);
    }
    gg.results = roots[k];
    for (size_t t = 0; t < roots[k].size(); ++t) {
      const Shape& s = gg.shape(roots[k][t]);
      if (k == 0) {
        out_shapes.push_back(s);
      } else {
        out_shapes[t] = common_shape(out_shapes[t], s);
      }
    }
    stateful = stateful || gg.is_stateful();
    grad_branches.push_back(FuncAttr{grad_function_name(branches[k].func.name), std::move(cut.graph)});
  }
  AttrMap attrs;
  attrs.set("Tin", tin);
  attrs.set("Tout", grad_dtypes);
  attrs.set("output_shapes", out_shapes);
  if (is_if) {
    attrs.set("then_branch", grad_branches[0]);
    attrs.set("else_branch", grad_branches[1]);
  } else {
    attrs.set("branches", grad_branches);
  }
  const char* op = is_if ? (stateful ? "If" : "StatelessIf") : (stateful ? "Case" : "StatelessCase");
  std::vector<GradValue> outs = b.op_n(op, grad_inputs, attrs);
  GRAPHFN_RETURN_IF_ERROR(b.status());
  for (size_t t = 0; t < differentiated.size(); ++t) (*grads)[1 + differentiated[t]] = outs[t];
  return Status::OK();
}


// ----------------------------------------------------------------------------------- While

// True if body result i is argument i, directly or through Identity nodes (a loop invariant).
bool loop_invariant(const Graph& body, int i) {
  Endpoint e = body.results[i];
  for (;;) {
    if (e.node == body.arguments[i] && e.index == 0) return true;
    const Node& node = body.node(e.node);
    if (node.op->name != "Identity") return false;
    e = node.inputs[0];
  }
}

// The element_shape input of TensorList ops for `shape` (-1 for an unknown rank or dim).
Tensor element_shape_tensor(const Shape& shape) {
  if (!shape.known_rank()) return scalar_tensor(DType::kInt32, -1);
  Tensor t(DType::kInt32, Shape{shape.rank()});
  for (int d = 0; d < shape.rank(); ++d) t.data<int32_t>()[d] = static_cast<int32_t>(shape.dim(d));
  return t;
}

Status while_grad(GradBuilder& b, const GradInputs& in, Grads* grads) {
  GraphGradBuilder* gb = nullptr;
  GRAPHFN_RETURN_IF_ERROR(need_graph_builder(b, in, &gb));
  Graph& g = gb->graph();
  const int id = in.node;
  const Node& node = g.node(id);
  const FuncAttr body_attr = *node.attrs.get_func("body");
  const Graph& body = *body_attr.graph;
  const int n = static_cast<int>(node.inputs.size());
  // Saved-value lists a gradient reaches (a higher derivative through the loop's gradient): their
  // elements' gradients seed the body's values of each iteration.
  std::vector<int> saved_seeds;
  for (int k = n; k < static_cast<int>(in.output_grads.size()); ++k) {
    if (!in.output_grads[k].is_null()) saved_seeds.push_back(k);
  }

  // The loop variables that carry a gradient: those the outputs' gradients reach, and (a fixed
  // point) those the body's gradient reaches from them.
  std::vector<int> carried;
  std::vector<DType> dy_dtypes(n, DType::kInvalid);
  std::vector<Shape> dy_shapes(n, Shape::unknown_rank());
  auto dy_shape = [&](int i, DType dt) {
    if (dt != DType::kResource && g.dtype(node.inputs[i]) == DType::kResource) {
      Shape s;
      return variable_shape(g, node.inputs[i], &s) ? s : Shape::unknown_rank();
    }
    return body.shape(Endpoint{body.arguments[i], 0});
  };
  for (int i = 0; i < n; ++i) {
    if (in.output_grads[i].is_null() || !is_trainable_dtype(g.dtype(node.inputs[i]))) continue;
    carried.push_back(i);
    dy_dtypes[i] = g.dtype(in.output_grads[i].endpoint);
    dy_shapes[i] = dy_shape(i, dy_dtypes[i]);
  }
  if (carried.empty() && saved_seeds.empty()) return Status::OK();
  Differentiated d;
  for (;;) {
    std::vector<int> seeded = carried;
    std::vector<DType> dts;
    std::vector<Shape> shapes;
    for (int i : carried) {
      dts.push_back(dy_dtypes[i]);
      shapes.push_back(dy_shapes[i]);
    }
    for (int k : saved_seeds) {
      seeded.push_back(k);
      dts.push_back(body.dtype(body.results[k]));
      shapes.push_back(body.shape(body.results[k]));
    }
    GRAPHFN_RETURN_IF_ERROR(differentiate_subgraph(body, seeded, dts, shapes, &d));
    bool grew = false;
    for (int i = 0; i < n; ++i) {
      if (d.grads[i].node < 0 || std::find(carried.begin(), carried.end(), i) != carried.end()) continue;
      carried.push_back(i);
      dy_dtypes[i] = d.combined->dtype(d.grads[i]);
      dy_shapes[i] = dy_shape(i, dy_dtypes[i]);
      grew = true;
    }
    if (!grew) break;
    std::sort(carried.begin(), carried.end());
  }
  Graph& c = *d.combined;

  // The backward body: loop variables (counter, iterations, one gradient per carried variable,
  // invariant forward inputs, saved-value lists), reading saved values at n - 1 - counter.
  auto bb = std::make_unique<Graph>();
  int counter = -1, iterations = -1, one = -1, last = -1, index = -1;
  GRAPHFN_RETURN_IF_ERROR(bb->add_placeholder(DType::kInt32, Shape(), "counter", &counter));
  GRAPHFN_RETURN_IF_ERROR(bb->add_placeholder(DType::kInt32, Shape(), "iterations", &iterations));
  std::vector<int> dy_args;
  EndpointMap mapped;
  for (size_t t = 0; t < carried.size(); ++t) {
    int ph = -1;
    GRAPHFN_RETURN_IF_ERROR(bb->add_placeholder(dy_dtypes[carried[t]], dy_shapes[carried[t]], "dy", &ph));
    dy_args.push_back(ph);
    mapped[d.dys[t]] = Endpoint{ph, 0};
  }
  GRAPHFN_RETURN_IF_ERROR(bb->add_const(scalar_tensor(DType::kInt32, 1), "one", &one));
  GRAPHFN_RETURN_IF_ERROR(bb->add_node("Sub", "last", {Endpoint{iterations, 0}, Endpoint{one, 0}}, AttrMap(), &last));
  GRAPHFN_RETURN_IF_ERROR(bb->add_node("Sub", "index", {Endpoint{last, 0}, Endpoint{counter, 0}}, AttrMap(), &index));
  std::vector<int> saved_grad_args;  // lists of the saved values' gradients, read at `index`
  for (size_t s = 0; s < saved_seeds.size(); ++s) {
    const Endpoint e = body.results[saved_seeds[s]];
    int list = -1, shape = -1, item = -1;
    GRAPHFN_RETURN_IF_ERROR(bb->add_placeholder(DType::kResource, Shape(), "saved_grad", &list));
    GRAPHFN_RETURN_IF_ERROR(bb->add_const(element_shape_tensor(body.shape(e)), "element_shape", &shape));
    AttrMap attrs;
    attrs.set("element_dtype", body.dtype(e));
    GRAPHFN_RETURN_IF_ERROR(bb->add_node("TensorListGetItem", "saved_grad",
                                         {Endpoint{list, 0}, Endpoint{index, 0}, Endpoint{shape, 0}}, attrs, &item));
    saved_grad_args.push_back(list);
    mapped[d.dys[carried.size() + s]] = Endpoint{item, 0};
  }
  std::vector<std::pair<int, int>> invariants;  // (forward input, placeholder)
  std::vector<std::pair<Endpoint, int>> saved;   // (body value, list placeholder)
  auto external = [&](Endpoint e, Endpoint* r) -> Status {
    if (c.node(e.node).const_value()) return copy_const(c, e.node, bb.get(), r);
    const int arg = argument_index(c, e);
    if (arg >= 0 && loop_invariant(body, arg)) {
      int ph = -1;
      GRAPHFN_RETURN_IF_ERROR(bb->add_placeholder(c.dtype(e), c.shape(e), c.node(e.node).name, &ph));
      if (const AttrValue* hs = c.node(e.node).attrs.find("_handle_shape")) bb->mutable_node(ph).attrs.set("_handle_shape", *hs);
      invariants.emplace_back(arg, ph);
      *r = Endpoint{ph, 0};
      return Status::OK();
    }
    int list = -1, shape = -1, item = -1;
    GRAPHFN_RETURN_IF_ERROR(bb->add_placeholder(DType::kResource, Shape(), "saved", &list));
    GRAPHFN_RETURN_IF_ERROR(bb->add_const(element_shape_tensor(c.shape(e)), "element_shape", &shape));
    AttrMap attrs;
    attrs.set("element_dtype", c.dtype(e));
    GRAPHFN_RETURN_IF_ERROR(bb->add_node("TensorListGetItem", c.node(e.node).name,
                                         {Endpoint{list, 0}, Endpoint{index, 0}, Endpoint{shape, 0}}, attrs, &item));
    saved.emplace_back(e, list);
    *r = Endpoint{item, 0};
    return Status::OK();
  };
  std::vector<Endpoint> present, copied;
  for (int i : carried) {
    if (d.grads[i].node >= 0) present.push_back(d.grads[i]);
  }
  GRAPHFN_RETURN_IF_ERROR(copy_subgraph(c, d.num_forward, present, bb.get(), &mapped, external, &copied));
  int next_counter = -1;
  GRAPHFN_RETURN_IF_ERROR(bb->add_node("AddV2", "next_counter", {Endpoint{counter, 0}, Endpoint{one, 0}}, AttrMap(),
                                       &next_counter));
  bb->arguments = {counter, iterations};
  bb->results = {Endpoint{next_counter, 0}, Endpoint{iterations, 0}};
  size_t next = 0;
  for (size_t t = 0; t < carried.size(); ++t) {
    bb->arguments.push_back(dy_args[t]);
    if (d.grads[carried[t]].node >= 0) {
      bb->results.push_back(copied[next++]);
    } else {  // the body does not reach this variable: its gradient is zero before this iteration
      Endpoint zero;
      GRAPHFN_RETURN_IF_ERROR(zeros_for(*bb, Endpoint{dy_args[t], 0}, dy_dtypes[carried[t]], "", &zero));
      bb->results.push_back(zero);
    }
  }
  for (int list : saved_grad_args) {
    bb->arguments.push_back(list);
    bb->results.push_back(Endpoint{list, 0});
  }
  for (const auto& [arg, ph] : invariants) {
    bb->arguments.push_back(ph);
    bb->results.push_back(Endpoint{ph, 0});
  }
  for (const auto& [e, list] : saved) {
    bb->arguments.push_back(list);
    bb->results.push_back(Endpoint{list, 0});
  }

  // The forward loop saves the values (reusing lists an earlier gradient made it save).
  std::unique_ptr<Graph> forward_body = c.clone_prefix(d.num_forward);
  std::vector<int> list_outputs;
  {
    Node& w = g.mutable_node(id);
    for (const auto& [e, list] : saved) {
      int r = result_index(*forward_body, e);
      if (r < n) {
        r = static_cast<int>(forward_body->results.size());
        forward_body->results.push_back(e);
        w.output_dtypes.push_back(DType::kResource);
        w.output_shapes.push_back(Shape());
      }
      list_outputs.push_back(r);
    }
    w.attrs.set("body", FuncAttr{body_attr.name, std::move(forward_body)});
  }

  // The backward loop: counter < iterations.
  std::vector<GradValue> loop_inputs{b.scalar(DType::kInt32, 0), GradValue(Endpoint{id, 0})};
  for (int i : carried) {
    if (!in.output_grads[i].is_null()) {
      loop_inputs.push_back(in.output_grads[i]);
      continue;
    }
    Endpoint zero;
    const Endpoint like = g.dtype(node.inputs[i]) == DType::kResource ? node.inputs[i] : Endpoint{id, i};
    GRAPHFN_RETURN_IF_ERROR(zeros_for(g, like, dy_dtypes[i], gb->scope(), &zero));
    loop_inputs.emplace_back(zero);
  }
  for (int k : saved_seeds) loop_inputs.push_back(in.output_grads[k]);
  for (const auto& [arg, ph] : invariants) loop_inputs.emplace_back(node.inputs[arg]);
  for (int r : list_outputs) loop_inputs.emplace_back(Endpoint{id, r});
  auto bc = std::make_unique<Graph>();
  std::vector<DType> dtypes;
  std::vector<Shape> shapes;
  for (int arg : bb->arguments) {
    int ph = -1;
    const Node& a = bb->node(arg);
    GRAPHFN_RETURN_IF_ERROR(bc->add_placeholder(a.output_dtypes[0], a.output_shapes[0], a.name, &ph));
    bc->arguments.push_back(ph);
    dtypes.push_back(a.output_dtypes[0]);
    shapes.push_back(a.output_shapes[0]);
  }
  int keep_going = -1;
  GRAPHFN_RETURN_IF_ERROR(bc->add_node("Less", "Less", {Endpoint{bc->arguments[0], 0}, Endpoint{bc->arguments[1], 0}},
                                       AttrMap(), &keep_going));
  bc->results = {Endpoint{keep_going, 0}};
  const bool stateful = bb->is_stateful();
  AttrMap attrs;
  attrs.set("T", dtypes);
  attrs.set("cond", FuncAttr{grad_function_name(node.attrs.get_func("cond")->name), std::move(bc)});
  attrs.set("body", FuncAttr{grad_function_name(body_attr.name), std::move(bb)});
  attrs.set("output_shapes", shapes);
  attrs.set("parallel_iterations", node.attrs.get_int("parallel_iterations", 10));
  std::vector<GradValue> outs = b.op_n(stateful ? "While" : "StatelessWhile", loop_inputs, attrs);
  GRAPHFN_RETURN_IF_ERROR(b.status());
  for (size_t t = 0; t < carried.size(); ++t) (*grads)[carried[t]] = outs[2 + t];
  return Status::OK();
}

}  // namespace

void register_control_flow_gradients(OpRegistry& reg) {
  for (const char* op : {"If", "StatelessIf", "Case", "StatelessCase"}) reg.set_gradient(op, branch_grad);
  for (const char* op : {"While", "StatelessWhile"}) reg.set_gradient(op, while_grad);
}

}  // namespace graphfn
