// Gradients of While (TF's while_v2): the body is differentiated once, and the gradient is a While
// that runs the body's gradient as many times as the forward loop ran (its counter output), last
// iteration first. Values the body's gradient reads are saved per iteration: the forward node is
// rewritten to give its body extra results, which the loop accumulates into TensorLists (extra
// outputs, see runtime/plan.cc); the backward body reads them with TensorListGetItem. Loop
// invariants (captured tensors) are read directly, and their gradients are summed across
// iterations as loop variables passed through unchanged.
#include <algorithm>

#include "graphfn/ir/graph_copy.h"
#include "graphfn/autodiff/control_flow_grad.h"

namespace graphfn {
namespace {

using namespace cf_grad;  // NOLINT: this file's helpers
using Grads = std::vector<GradValue>;

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

void register_while_gradients(OpRegistry& reg) {
  for (const char* op : {"While", "StatelessWhile"}) reg.set_gradient(op, while_grad);
}

}  // namespace graphfn
