// Gradients of If and While nodes (autodiff/control_flow_grad.cc) through add_gradients, run by plans.
#include "harness.h"
#include "passes/graph_builder.h"

#include "graphfn/autodiff/symbolic_gradients.h"
#include "graphfn/passes/pass_manager.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

// A subgraph with float/int placeholders `args`; build(graph, ids) returns its results.
template <typename Build>
std::shared_ptr<Graph> subgraph(const std::vector<DType>& args, Build build) {
  auto t = std::make_shared<TestGraph>();
  std::vector<int> ids;
  for (DType dt : args) ids.push_back(t->placeholder(dt, Shape()));
  build(*t, ids);
  // TestGraph owns its graph: move it into a shared Graph through a clone.
  return std::shared_ptr<Graph>(t->g.clone());
}

float run_scalar(const Graph& g, const std::vector<Tensor>& feeds, int result = 0) {
  std::vector<Tensor> out;
  const Status s = run_graph(g, feeds, &out);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return values<float>(out[result])[0];
}

}  // namespace

TEST_CASE("an If's gradient is an If over the branches' gradients", "[ir][gradient][control_flow]") {
  // y = pred ? x * x * x : x * 3
  TestGraph t;
  const int pred = t.placeholder(DType::kBool, Shape(), "pred");
  const int x = t.placeholder(DType::kFloat32, Shape(), "x");
  auto then_g = subgraph({DType::kFloat32}, [](TestGraph& b, const std::vector<int>& a) {
    b.results({b.op("Mul", {b.op("Mul", {a[0], a[0]}), a[0]})});
  });
  auto else_g = subgraph({DType::kFloat32}, [](TestGraph& b, const std::vector<int>& a) {
    b.results({b.op("Mul", {a[0], b.constant(scalar<float>(3))})});
  });
  const int y = t.op_at("StatelessIf", {{pred, 0}, {x, 0}},
                        attrs_of({{"Tin", std::vector<DType>{DType::kFloat32}},
                                  {"Tout", std::vector<DType>{DType::kFloat32}},
                                  {"then_branch", FuncAttr{"then", then_g}}, {"else_branch", FuncAttr{"else", else_g}}}));
  GradientRequest request;
  request.targets = {Endpoint{y, 0}};
  request.sources = {Endpoint{x, 0}};
  std::vector<Endpoint> grads;
  const Status s = add_gradients(t.g, request, &grads);
  INFO(s.to_string());
  REQUIRE(s.ok());
  // The then-branch's gradient reads x * x: an extra output of the forward If.
  CHECK(t.node(y).output_dtypes.size() == 2);
  t.g.results = {Endpoint{y, 0}, grads[0]};
  CHECK(run_scalar(t.g, {scalar<bool>(true), scalar<float>(2)}, 1) == 12);
  CHECK(run_scalar(t.g, {scalar<bool>(false), scalar<float>(2)}, 1) == 3);
  // Optimized the same way a function's plan is.
  std::unique_ptr<Graph> optimized;
  REQUIRE(optimized_copy(t.g, OptimizerOptions(), &optimized).ok());
  CHECK(run_scalar(*optimized, {scalar<bool>(true), scalar<float>(-1)}, 1) == 3);
}

TEST_CASE("a While's gradient runs the body's gradient over the saved iterations", "[ir][gradient][control_flow]") {
  // (i, n, y, x) -> (i + 1, n, y * x, x) while i < n: y = x^n.
  const std::vector<DType> state{DType::kInt32, DType::kInt32, DType::kFloat32, DType::kFloat32};
  auto cond = subgraph(state, [](TestGraph& b, const std::vector<int>& a) { b.results({b.op("Less", {a[0], a[1]})}); });
  auto body = subgraph(state, [](TestGraph& b, const std::vector<int>& a) {
    b.results({b.op("AddV2", {a[0], b.constant(scalar<int32_t>(1))}), b.op("Identity", {a[1]}),
               b.op("Mul", {a[2], a[3]}), a[3]});
  });
  TestGraph t;
  const int n = t.placeholder(DType::kInt32, Shape(), "n");
  const int x = t.placeholder(DType::kFloat32, Shape(), "x");
  const int zero = t.constant(scalar<int32_t>(0));
  const int one = t.constant(scalar<float>(1));
  const int w = t.op_at("StatelessWhile", {{zero, 0}, {n, 0}, {one, 0}, {x, 0}},
                        attrs_of({{"T", state}, {"cond", FuncAttr{"cond", cond}}, {"body", FuncAttr{"body", body}}}));
  GradientRequest request;
  request.targets = {Endpoint{w, 2}};
  request.sources = {Endpoint{x, 0}};
  std::vector<Endpoint> grads;
  const Status s = add_gradients(t.g, request, &grads);
  INFO(s.to_string());
  REQUIRE(s.ok());
  // The body's gradient reads y (a loop variable) each iteration: one saved-value list.
  CHECK(t.node(w).output_dtypes.size() == 5);
  CHECK(t.node(w).output_dtypes[4] == DType::kResource);
  t.g.results = {Endpoint{w, 2}, grads[0]};
  for (int iterations : {0, 1, 5}) {
    INFO("iterations " << iterations);
    CHECK(run_scalar(t.g, {scalar<int32_t>(iterations), scalar<float>(2)}, 0) == std::pow(2.0f, iterations));
    CHECK(run_scalar(t.g, {scalar<int32_t>(iterations), scalar<float>(2)}, 1) ==
          (iterations == 0 ? 0.0f : iterations * std::pow(2.0f, iterations - 1)));
  }
  std::unique_ptr<Graph> optimized;
  REQUIRE(optimized_copy(t.g, OptimizerOptions(), &optimized).ok());
  CHECK(run_scalar(*optimized, {scalar<int32_t>(3), scalar<float>(3)}, 1) == 27);
}
