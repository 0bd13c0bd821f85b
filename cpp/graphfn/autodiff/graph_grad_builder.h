// GraphGradBuilder: runs gradient functions symbolically, appending their ops as nodes of an
// ir::Graph (named inside `scope`, "gradients/Mul" ...). This is what differentiating a traced
// function (its backward graph), cond and while_loop builds on; values are graph endpoints.
#pragma once
#include <string>

#include "graphfn/autodiff/gradient.h"
#include "graphfn/ir/graph.h"

namespace graphfn {

class GraphGradBuilder : public GradBuilder {
 public:
  explicit GraphGradBuilder(Graph* graph, std::string scope = "gradients/")
      : graph_(graph), scope_(std::move(scope)) {}

  GradValue constant(const Tensor& value) override;
  DType dtype(const GradValue& v) const override { return graph_->dtype(v.endpoint); }
  Shape static_shape(const GradValue& v) const override { return graph_->shape(v.endpoint); }
  const Tensor* constant_value(const GradValue& v) const override;

  Graph& graph() { return *graph_; }
  const std::string& scope() const { return scope_; }

 protected:
  Status run(const OpDef& op, const std::vector<GradValue>& inputs, const AttrMap& attrs,
             std::vector<GradValue>* outputs) override;

 private:
  Graph* graph_;
  std::string scope_;
};

}  // namespace graphfn
