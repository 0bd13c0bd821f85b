#include "graphfn/autodiff/graph_grad_builder.h"

namespace graphfn {

GradValue GraphGradBuilder::constant(const Tensor& value) {
  int id = -1;
  set_error(graph_->add_const(value, scope_ + "Const", &id));
  return id < 0 ? GradValue() : GradValue(Endpoint{id, 0});
}

const Tensor* GraphGradBuilder::constant_value(const GradValue& v) const {
  return v.endpoint.index == 0 ? graph_->node(v.endpoint.node).const_value() : nullptr;
}

Status GraphGradBuilder::run(const OpDef& op, const std::vector<GradValue>& inputs, const AttrMap& attrs,
                             std::vector<GradValue>* outputs) {
  std::vector<Endpoint> endpoints;
  endpoints.reserve(inputs.size());
  for (const GradValue& v : inputs) {
    if (v.endpoint.node < 0) return errors::Internal("graph gradient of ", op.name, ": an input is not a graph value");
    endpoints.push_back(v.endpoint);
  }
  int id = -1;
  GRAPHFN_RETURN_IF_ERROR(graph_->add_node(op, scope_ + op.name, endpoints, attrs, &id));
  outputs->clear();
  const int n = static_cast<int>(graph_->node(id).output_dtypes.size());
  for (int i = 0; i < n; ++i) outputs->emplace_back(Endpoint{id, i});
  return Status::OK();
}

}  // namespace graphfn
