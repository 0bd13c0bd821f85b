#include "graphfn/autodiff/control_flow_grad.h"

#include <atomic>

#include "graphfn/core/resource.h"
#include "graphfn/autodiff/symbolic_gradients.h"

namespace graphfn {
namespace cf_grad {
namespace {
std::atomic<int> g_grad_uid{1};
}  // namespace

std::string grad_function_name(const std::string& forward) { return forward + "_grad_" + std::to_string(g_grad_uid++); }

bool is_float(DType dt) { return dt == DType::kFloat32 || dt == DType::kFloat64; }

Status need_graph_builder(GradBuilder& b, const GradInputs& in, GraphGradBuilder** gb) {
  *gb = dynamic_cast<GraphGradBuilder*>(&b);
  if (!*gb || in.node < 0) return errors::Unimplemented("the gradient of ", in.op->name, " needs a graph");
  return Status::OK();
}

Tensor placeholder_zero(DType dt) {
  if (dt == DType::kString || dt == DType::kResource) return Tensor(dt, Shape());
  return scalar_tensor(dt, 0);
}

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

}  // namespace cf_grad

void register_cond_gradients(OpRegistry& reg);
void register_while_gradients(OpRegistry& reg);

void register_control_flow_gradients(OpRegistry& reg) {
  register_cond_gradients(reg);
  register_while_gradients(reg);
}

}  // namespace graphfn
