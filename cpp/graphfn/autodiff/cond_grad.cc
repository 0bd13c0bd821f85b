// Gradients of If / Case (TF's cond_v2): each branch is differentiated on its own, and the
// gradient is an If / Case on the same selector over the gradient branches. A gradient branch
// reads the forward inputs it needs (inputs of the gradient node) and values computed inside its
// forward branch: those become extra outputs of the forward node (the other branches output a
// placeholder zero there), which is rewritten in place. Every gradient branch returns a gradient
// for every input some branch differentiates (zeros where its own branch does not use it).
#include <algorithm>
#include <map>

#include "graphfn/core/shape_merge.h"
#include "graphfn/ir/graph_copy.h"
#include "graphfn/autodiff/control_flow_grad.h"

namespace graphfn {
namespace {

using namespace cf_grad;  // NOLINT: this file's helpers
using Grads = std::vector<GradValue>;

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
      shape = most_specific_common_shape(shape, Shape());
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
        out_shapes[t] = most_specific_common_shape(out_shapes[t], s);
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

}  // namespace

void register_cond_gradients(OpRegistry& reg) {
  for (const char* op : {"If", "StatelessIf", "Case", "StatelessCase"}) reg.set_gradient(op, branch_grad);
}

}  // namespace graphfn
