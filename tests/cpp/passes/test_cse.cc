#include "graph_builder.h"

#include "graphfn/core/resource.h"
#include "graphfn/passes/cse.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("CSE merges duplicated constants and chains", "[passes][cse]") {
  // (x + 1) * 2 computed twice, each with its own constants.
  TestGraph t;
  int x = t.placeholder(DType::kInt32, Shape{2});
  int a1 = t.op("AddV2", {x, t.constant(scalar<int32_t>(1))}, AttrMap(), "a1");
  int m1 = t.op("Mul", {a1, t.constant(scalar<int32_t>(2))}, AttrMap(), "m1");
  int a2 = t.op("AddV2", {x, t.constant(scalar<int32_t>(1))}, AttrMap(), "a2");
  int m2 = t.op("Mul", {a2, t.constant(scalar<int32_t>(2))}, AttrMap(), "m2");
  int sum = t.op("AddV2", {m1, m2}, AttrMap(), "sum");
  t.results({sum, m2});

  CHECK(eliminate_common_subexpressions(t.g));
  CHECK(t.node(sum).inputs[1].node == m1);  // m2 -> m1
  CHECK(t.g.results[1].node == m1);         // results are redirected too
  CHECK_FALSE(eliminate_common_subexpressions(t.g));

  std::vector<Tensor> results;
  std::vector<std::string> steps;
  REQUIRE(run_graph(t.g, {vec<int32_t>({1, 2})}, &results, &steps).ok());
  CHECK(steps == std::vector<std::string>{"a1", "m1", "sum"});
  CHECK(values<int32_t>(results[0]) == std::vector<int32_t>{8, 12});
  CHECK(values<int32_t>(results[1]) == std::vector<int32_t>{4, 6});
}

TEST_CASE("CSE matches commutative ops with swapped inputs only", "[passes][cse]") {
  TestGraph t;
  int x = t.placeholder(DType::kFloat32, Shape{}, "x");
  int y = t.placeholder(DType::kFloat32, Shape{}, "y");
  int xy = t.op("Mul", {x, y});
  int yx = t.op("Mul", {y, x});
  int sub_xy = t.op("Sub", {x, y});
  int sub_yx = t.op("Sub", {y, x});
  t.results({xy, yx, sub_xy, sub_yx});
  eliminate_common_subexpressions(t.g);
  CHECK(t.g.results[1].node == xy);
  CHECK(t.g.results[2].node == sub_xy);
  CHECK(t.g.results[3].node == sub_yx);
  // Two placeholders with equal attrs are distinct arguments.
  CHECK(t.g.node(xy).inputs[1].node == y);
}

TEST_CASE("CSE compares attrs and constant values exactly", "[passes][cse]") {
  TestGraph t;
  int x = t.placeholder(DType::kInt32, Shape{});
  int to_f32 = t.op("Cast", {x}, attrs_of({{"DstT", DType::kFloat32}}));
  int to_f64 = t.op("Cast", {x}, attrs_of({{"DstT", DType::kFloat64}}));
  int to_f32_again = t.op("Cast", {x}, attrs_of({{"DstT", DType::kFloat32}}));
  int zero = t.constant(scalar<float>(0.0f));
  int minus_zero = t.constant(scalar<float>(-0.0f));
  int zero_vec = t.constant(vec<float>({0.0f}));
  int zero_i = t.constant(scalar<int32_t>(0));
  int zero_again = t.constant(scalar<float>(0.0f));
  int s1 = t.constant(Tensor::scalar<std::string>("a"));
  int s2 = t.constant(Tensor::scalar<std::string>("b"));
  int s3 = t.constant(Tensor::scalar<std::string>("a"));
  t.results({to_f32, to_f64, to_f32_again, zero, minus_zero, zero_vec, zero_i, zero_again, s1, s2, s3});
  eliminate_common_subexpressions(t.g);
  std::vector<int> merged_into;
  for (const Endpoint& e : t.g.results) merged_into.push_back(e.node);
  CHECK(merged_into == std::vector<int>{to_f32, to_f64, to_f32, zero, minus_zero, zero_vec, zero_i, zero, s1, s2, s1});
}

TEST_CASE("CSE leaves stateful, random and resource ops and differing control inputs alone", "[passes][cse]") {
  TestGraph t;
  int shape = t.constant(vec<int32_t>({2}));
  const AttrMap random_attrs = attrs_of({{"dtype", DType::kFloat32}, {"seed", int64_t{1}}, {"seed2", int64_t{2}}});
  int r1 = t.op("RandomUniform", {shape}, random_attrs);
  int r2 = t.op("RandomUniform", {shape}, random_attrs);
  auto var = std::make_shared<VariableResource>(DType::kFloat32, Shape{});
  REQUIRE(var->assign(scalar<float>(1)).ok());
  int handle = t.constant(make_resource_tensor(var));
  int handle_again = t.constant(make_resource_tensor(var));
  const AttrMap f32 = attrs_of({{"dtype", DType::kFloat32}});
  int read1 = t.op("ReadVariableOp", {handle}, f32);
  int read2 = t.op("ReadVariableOp", {handle}, f32);
  int msg = t.constant(Tensor::scalar<std::string>("hi"));
  const AttrMap to_log = attrs_of({{"output_stream", std::string("file:///dev/null")}});
  int p1 = t.op("PrintV2", {msg}, to_log);
  int p2 = t.op("PrintV2", {msg}, to_log);
  int n1 = t.op("Neg", {read1});
  int n2 = t.op("Neg", {read1});
  t.g.add_control_input(n2, p1);
  t.results({r1, r2, handle, handle_again, read1, read2, n1, n2});

  CHECK_FALSE(eliminate_common_subexpressions(t.g));
  CHECK(t.g.results[1].node == r2);
  CHECK(t.g.results[3].node == handle_again);
  CHECK(t.g.results[5].node == read2);
  CHECK(t.g.results[7].node == n2);
  CHECK(t.node(p2).inputs[0].node == msg);
  std::vector<Tensor> results;
  Status s = run_graph(t.g, {}, &results);
  INFO(s.to_string());
  REQUIRE(s.ok());
  // Two nodes, each with its own stream from the same seeds: equal draws, as in TF.
  CHECK(values<float>(results[0]) == values<float>(results[1]));
}

TEST_CASE("CSE redirects control inputs to the kept node", "[passes][cse]") {
  TestGraph t;
  int x = t.placeholder(DType::kFloat32, Shape{});
  int a = t.op("Neg", {x});
  int b = t.op("Neg", {x});
  int c = t.op("Abs", {x});
  t.g.add_control_input(c, b);
  t.g.add_control_input(c, a);
  t.results({c});
  CHECK(eliminate_common_subexpressions(t.g));
  CHECK(t.node(c).control_inputs == std::vector<int>{a});  // deduplicated
}
