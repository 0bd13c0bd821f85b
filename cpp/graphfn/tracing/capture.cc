#include "graphfn/tracing/capture.h"

#include "graphfn/core/resource.h"
#include "graphfn/autodiff/symbolic_gradients.h"

namespace graphfn {
namespace {

// The placeholder of `graph` that stands for `outer` (an output of graph.enclosing), made on
// first use.
Status capture_placeholder(Graph& graph, Endpoint outer, int* placeholder) {
  GraphTrace& trace = trace_of(graph);
  for (const Capture& c : trace.captures) {
    if (c.outer == outer) {
      *placeholder = c.placeholder;
      return Status::OK();
    }
  }
  const Graph& enclosing = *trace.enclosing;
  const Node& src = enclosing.node(outer.node);
  int id = 0;
  Status s = graph.add_placeholder(enclosing.dtype(outer), enclosing.shape(outer), trace.name_scope + src.name, &id);
  if (!s.ok()) return s;
  // A captured variable handle keeps the variable's shape for shape inference.
  if (const AttrValue* handle_shape = src.attrs.find("_handle_shape")) {
    graph.mutable_node(id).attrs.set("_handle_shape", *handle_shape);
  } else if (const Tensor* value = src.const_value(); value && value->dtype() == DType::kResource) {
    if (auto var = std::dynamic_pointer_cast<VariableResource>(*value->data<ResourceHandle>())) {
      graph.mutable_node(id).attrs.set("_handle_shape", var->shape());
    }
  }
  trace.captures.push_back({outer, id});
  *placeholder = id;
  return Status::OK();
}

// True if `graph` is a clone of `owner` (or both of one graph) that kept node e.node: a gradient
// built on the clone of a traced function (runtime/function.cc) uses the function's tensors that
// a custom gradient's closure holds.
bool same_node_in_clone(const Graph& graph, const Graph* owner, Endpoint e) {
  return owner && owner->lineage() == graph.lineage() && e.node >= 0 && e.node < graph.num_nodes() &&
         e.node < owner->num_nodes() && e.index >= 0 &&
         e.index < static_cast<int>(graph.node(e.node).output_dtypes.size()) &&
         graph.node(e.node).name == owner->node(e.node).name;
}

}  // namespace

Graph* enclosing_graph(const Graph& graph) {
  const GraphTrace* trace = find_trace(graph);
  return trace ? trace->enclosing : nullptr;
}

bool can_capture(const Graph& graph, const Graph* owner) {
  for (const Graph* g = &graph; g; g = enclosing_graph(*g)) {
    if (g == owner || (owner && g->lineage() == owner->lineage())) return true;
  }
  return false;
}

std::shared_ptr<Graph> new_subgraph(const std::shared_ptr<Graph>& enclosing, const std::string& name_scope) {
  auto g = std::make_shared<Graph>();
  GraphTrace& trace = trace_of(*g);
  trace.enclosing = enclosing.get();
  trace.outer_graph = enclosing;
  trace.is_subgraph = true;
  trace.name_scope = name_scope;
  return g;
}

Status capture(Graph& graph, const Graph* owner, Endpoint e, Endpoint* out) {
  if (owner == &graph || same_node_in_clone(graph, owner, e)) {
    *out = e;
    return Status::OK();
  }
  if (owner && owner->lineage() == graph.lineage()) {
    return errors::InvalidArgument("a tensor (node ", e.node, ", output ", e.index,
                                   ") is not in the copy of its graph being differentiated");
  }
  *out = Endpoint{-1, 0};
  Graph* enclosing = enclosing_graph(graph);
  if (!enclosing) return Status::OK();
  Endpoint outer;
  Status s = capture(*enclosing, owner, e, &outer);
  if (!s.ok() || outer.node < 0) return s;
  int placeholder = 0;
  s = capture_placeholder(graph, outer, &placeholder);
  if (s.ok()) *out = Endpoint{placeholder, 0};
  return s;
}

Status capture_resource(Graph& graph, const Tensor& handle, const std::string& name, Endpoint* out) {
  if (handle.dtype() != DType::kResource || handle.num_elements() != 1) {
    return Status(Code::kInvalidArgument, "capture_resource: expected a scalar resource handle");
  }
  Graph* root = &graph;
  while (Graph* enclosing = enclosing_graph(*root)) root = enclosing;
  Endpoint e = root == &graph ? Endpoint{-1, 0} : find_resource_const(*root, handle.data<ResourceHandle>()->get());
  if (e.node < 0) {
    Status s = root->add_const(handle, name, &e.node);
    if (!s.ok()) return s;
    e.index = 0;
  }
  return capture(graph, root, e, out);
}

}  // namespace graphfn
