// Shared pieces of the control-flow gradients (cond_grad.cc: If / Case, while_grad.cc: While),
// built like TF's cond_v2 and while_v2 with the graph differentiation functions use
// (autodiff/symbolic_gradients.h). They need a GraphGradBuilder: cond and while_loop only make these
// nodes while tracing.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "graphfn/autodiff/graph_grad_builder.h"
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace cf_grad {

// A fresh library name for the gradient of function `forward` ("cond_true_3_grad_7").
std::string grad_function_name(const std::string& forward);
bool is_float(DType dt);
Status need_graph_builder(GradBuilder& b, const GradInputs& in, GraphGradBuilder** gb);
// A zero scalar of `dt` (a null handle for resources): what a branch outputs in place of an
// intermediate value another branch computes.
Tensor placeholder_zero(DType dt);
// The (fully known) shape of the value behind a resource endpoint: a captured variable.
bool variable_shape(const Graph& g, Endpoint e, Shape* shape);
// Zeros shaped like the gradient of `like`, of dtype `dt`, added to `g` (a variable's handle:
// zeros of its value's shape).
Status zeros_for(Graph& g, Endpoint like, DType dt, const std::string& scope, Endpoint* out);

// A subgraph differentiated: `combined` is the forward subgraph with gradient nodes appended,
// seeded with placeholders `dys` at the results `result_indices`; `grads` has one entry per
// argument (node -1: none).
struct Differentiated {
  std::shared_ptr<Graph> combined;  // shared: a custom gradient builds into it from Python
  int num_forward = 0;
  std::vector<Endpoint> dys;
  std::vector<Endpoint> grads;
};
Status differentiate_subgraph(const Graph& graph, const std::vector<int>& result_indices,
                              const std::vector<DType>& dy_dtypes, const std::vector<Shape>& dy_shapes,
                              Differentiated* out);

// Which argument / result `e` is, or -1.
int argument_index(const Graph& g, Endpoint e);
int result_index(const Graph& g, Endpoint e);

}  // namespace cf_grad
}  // namespace graphfn
