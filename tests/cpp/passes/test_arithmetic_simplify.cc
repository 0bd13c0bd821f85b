#include "graph_builder.h"

#include "graphfn/passes/arithmetic_simplify.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("simplification bypasses neutral arithmetic", "[passes][simplify]") {
  TestGraph t;
  int x = t.placeholder(DType::kFloat32, Shape{3});
  int one = t.constant(scalar<float>(1));
  int zero = t.constant(scalar<float>(0));
  int ones = t.constant(vec<float>({1, 1, 1}));
  const std::vector<int> bypassed = {
      t.op("Mul", {x, one}),  t.op("Mul", {one, x}),   t.op("Mul", {x, ones}),    t.op("AddV2", {x, zero}),
      t.op("AddV2", {zero, x}), t.op("Sub", {x, zero}), t.op("RealDiv", {x, one}), t.op("Identity", {x}),
  };
  t.results(bypassed);
  CHECK(simplify_arithmetic(t.g));
  for (const Endpoint& e : t.g.results) CHECK(e.node == x);
  CHECK_FALSE(simplify_arithmetic(t.g));
  std::vector<Tensor> results;
  std::vector<std::string> steps;
  REQUIRE(run_graph(t.g, {vec<float>({-0.0f, 2.5f, 3})}, &results, &steps).ok());
  CHECK(steps.empty());
  CHECK(values<float>(results[0]) == std::vector<float>{0, 2.5f, 3});
}

TEST_CASE("simplification collapses Identity chains and double negation", "[passes][simplify]") {
  TestGraph t;
  int x = t.placeholder(DType::kInt32, Shape{-1});  // shape need not be known for these
  int id1 = t.op("Identity", {x});
  int id2 = t.op("Identity", {id1});
  int neg = t.op("Neg", {id2}, AttrMap(), "neg");
  int neg_neg = t.op("Neg", {t.op("Identity", {neg})});
  int abs = t.op("Abs", {t.op("Identity", {neg_neg})}, AttrMap(), "abs");
  t.results({id2, neg, abs});
  CHECK(simplify_arithmetic(t.g));
  CHECK(t.g.results[0].node == x);
  CHECK(t.node(neg).inputs[0].node == x);
  CHECK(t.g.results[1].node == neg);  // a single Neg stays
  CHECK(t.node(abs).inputs[0].node == x);
  std::vector<Tensor> results;
  std::vector<std::string> steps;
  REQUIRE(run_graph(t.g, {vec<int32_t>({-2, 3})}, &results, &steps).ok());
  CHECK(steps == std::vector<std::string>{"neg", "abs"});
  CHECK(values<int32_t>(results[2]) == std::vector<int32_t>{2, 3});
}

TEST_CASE("simplification keeps what would change a shape, dtype or value", "[passes][simplify]") {
  TestGraph t;
  int scalar_x = t.placeholder(DType::kFloat32, Shape{}, "s");
  int x = t.placeholder(DType::kFloat32, Shape{3}, "x");
  int unknown = t.placeholder(DType::kFloat32, Shape{-1}, "u");
  int zero = t.constant(scalar<float>(0));
  int one = t.constant(scalar<float>(1));
  const std::vector<int> kept = {
      t.op("AddV2", {scalar_x, t.constant(vec<float>({0, 0, 0}))}),  // broadcasts to [3]
      t.op("Mul", {x, t.constant(tensor<float>({1, 1, 1, 1, 1, 1}, Shape{2, 3}))}),  // to [2,3]
      t.op("Mul", {unknown, one}),                                   // shape not known
      t.op("Sub", {zero, x}),                                        // 0 - x
      t.op("RealDiv", {one, x}),                                     // 1 / x
      t.op("Mul", {x, t.constant(scalar<float>(2))}),
      t.op("AddV2", {x, t.constant(vec<float>({0, 1, 0}))}),
      t.op("Mul", {x, zero}),
      t.op("Neg", {x}),
  };
  int with_control = t.op("Identity", {x});
  t.g.add_control_input(with_control, kept[0]);
  t.results(kept);
  t.g.results.push_back(Endpoint{with_control, 0});
  CHECK_FALSE(simplify_arithmetic(t.g));
}

TEST_CASE("simplification leaves non-numeric operands alone", "[passes][simplify]") {
  TestGraph t;
  int s = t.placeholder(DType::kString, Shape{}, "s");
  int joined = t.op("Add", {s, t.constant(Tensor::scalar<std::string>(""))});
  t.results({joined});
  CHECK_FALSE(simplify_arithmetic(t.g));
}

TEST_CASE("simplification redirects control dependencies to the kept input", "[passes][simplify]") {
  TestGraph t;
  int x = t.placeholder(DType::kFloat32, Shape{});
  int neg = t.op("Neg", {x});
  int id = t.op("Identity", {neg});
  int abs = t.op("Abs", {x});
  t.g.add_control_input(abs, id);
  t.results({abs});
  CHECK(simplify_arithmetic(t.g));
  CHECK(t.node(abs).control_inputs == std::vector<int>{neg});
}
