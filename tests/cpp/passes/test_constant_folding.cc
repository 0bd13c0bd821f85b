#include "graph_builder.h"

#include "graphfn/core/resource.h"
#include "graphfn/passes/constant_folding.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("constant folding evaluates chains of constant ops in place", "[passes][folding]") {
  TestGraph t;
  int x = t.placeholder(DType::kInt32, Shape{2});
  int mul = t.op("Mul", {t.constant(scalar<int32_t>(2)), t.constant(scalar<int32_t>(3))}, AttrMap(), "mul");
  int add = t.op("AddV2", {mul, t.constant(vec<int32_t>({1, 10}))}, AttrMap(), "add");
  int out = t.op("AddV2", {x, add}, AttrMap(), "out");
  t.results({out});

  CHECK(fold_constants(t.g));
  // Same ids and names, now Consts: consumers still refer to them.
  REQUIRE(t.is_const(mul));
  REQUIRE(t.is_const(add));
  CHECK(t.node(mul).name == "mul");
  CHECK(t.node(add).name == "add");
  CHECK(t.node(add).inputs.empty());
  CHECK(values<int32_t>(*t.node(add).const_value()) == std::vector<int32_t>{7, 16});
  CHECK(t.node(add).output_shapes[0] == Shape{2});
  CHECK_FALSE(t.is_const(out));  // depends on the placeholder
  CHECK_FALSE(fold_constants(t.g));  // nothing left to fold

  std::vector<Tensor> results;
  std::vector<std::string> steps;
  REQUIRE(run_graph(t.g, {vec<int32_t>({100, 200})}, &results, &steps).ok());
  CHECK(steps == std::vector<std::string>{"out"});
  CHECK(values<int32_t>(results[0]) == std::vector<int32_t>{107, 216});
}

TEST_CASE("constant folding keeps the folded node's control inputs", "[passes][folding]") {
  TestGraph t;
  int msg = t.constant(Tensor::scalar<std::string>("hi"));
  int print = t.op("PrintV2", {msg}, attrs_of({{"output_stream", std::string("file:///dev/null")}}));
  int neg = t.op("Neg", {t.constant(scalar<float>(2))});
  t.g.add_control_input(neg, print);
  t.results({neg});
  CHECK(fold_constants(t.g));
  REQUIRE(t.is_const(neg));
  CHECK(t.node(neg).control_inputs == std::vector<int>{print});
  CHECK_FALSE(t.is_const(print));
}

TEST_CASE("constant folding leaves stateful, random and resource ops alone", "[passes][folding]") {
  TestGraph t;
  int shape = t.constant(vec<int32_t>({2}));
  int random = t.op("RandomUniform", {shape}, attrs_of({{"dtype", DType::kFloat32}, {"seed", int64_t{1}}}));
  auto var = std::make_shared<VariableResource>(DType::kFloat32, Shape{});
  REQUIRE(var->assign(scalar<float>(1)).ok());
  int handle = t.constant(make_resource_tensor(var));
  int read = t.op("ReadVariableOp", {handle}, attrs_of({{"dtype", DType::kFloat32}}));
  int identity_of_handle = t.op("Identity", {handle});
  int cond = t.op("Equal", {t.constant(scalar<int32_t>(1)), t.constant(scalar<int32_t>(2))});
  int assert_op = t.op_at("Assert", std::vector<Endpoint>{{cond, 0}, {shape, 0}});
  t.results({random, read, identity_of_handle});

  fold_constants(t.g);
  CHECK(t.node(random).op->name == "RandomUniform");
  CHECK(t.node(read).op->name == "ReadVariableOp");
  CHECK(t.node(identity_of_handle).op->name == "Identity");
  CHECK(t.is_const(cond));  // the condition is pure; the Assert still runs (and fails) at run time
  CHECK(t.node(assert_op).op->name == "Assert");
  std::vector<Tensor> results;
  t.results({random, read});
  CHECK(run_graph(t.g, {}, &results).code() == Code::kInvalidArgument);
}

TEST_CASE("constant folding never raises: failing nodes fail at run time, if they run", "[passes][folding]") {
  TestGraph t;
  int x = t.placeholder(DType::kInt32, Shape{});
  int div = t.op("FloorDiv", {t.constant(scalar<int32_t>(1)), t.constant(scalar<int32_t>(0))}, AttrMap(), "floordiv");
  int unused_result = t.op("AddV2", {x, t.constant(scalar<int32_t>(1))});
  int used = t.op("AddV2", {x, div});

  CHECK_FALSE(fold_constants(t.g));
  CHECK(t.node(div).op->name == "FloorDiv");

  std::vector<Tensor> results;
  t.results({unused_result});
  REQUIRE(run_graph(t.g, {scalar<int32_t>(1)}, &results).ok());
  CHECK(values<int32_t>(results[0]) == std::vector<int32_t>{2});
  t.results({used});
  Status s = run_graph(t.g, {scalar<int32_t>(1)}, &results);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message().find("Detected at node floordiv:\nInteger division by zero") != std::string::npos);
}

TEST_CASE("constant folding skips large, multi-output and zero-input nodes", "[passes][folding]") {
  TestGraph t;
  int x = t.placeholder(DType::kFloat32, Shape{});
  int one = t.constant(scalar<float>(1));
  int small = t.op("Fill", {t.constant(vec<int32_t>({kMaxFoldedElements})), one});
  int large = t.op("Fill", {t.constant(vec<int32_t>({kMaxFoldedElements + 1})), one});
  int pair = t.constant(vec<float>({1, 2}));
  int unpack = t.op("Unpack", {pair}, attrs_of({{"num", int64_t{2}}}));
  int first = t.op_at("Identity", std::vector<Endpoint>{{unpack, 0}});
  t.results({x, small, large, first});

  fold_constants(t.g);
  CHECK(t.is_const(small));
  CHECK(t.node(large).op->name == "Fill");
  CHECK(t.node(unpack).op->name == "Unpack");
  CHECK_FALSE(t.is_const(first));
  CHECK(t.node(x).op->name == "Placeholder");
}
