#include <thread>

#include "harness.h"

#include "graphfn/core/resource.h"
#include "graphfn/passes/auto_control_deps.h"
#include "graphfn/runtime/plan.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

std::shared_ptr<VariableResource> new_variable(const Tensor& init) {
  auto var = std::make_shared<VariableResource>(init.dtype(), init.shape());
  REQUIRE(var->assign(init).ok());
  return var;
}

AttrMap dtype_attr(DType dt) {
  AttrMap a;
  a.set("dtype", dt);
  return a;
}

}  // namespace

TEST_CASE("variable ops read and update through the handle", "[runtime][variables]") {
  auto var = new_variable(scalar<float>(1.5f));
  Tensor handle = make_resource_tensor(var);
  CHECK(values<float>(run1("ReadVariableOp", {handle}, dtype_attr(DType::kFloat32)))[0] == 1.5f);
  run("AssignAddVariableOp", {handle, scalar<float>(2.0f)}, dtype_attr(DType::kFloat32));
  run("AssignSubVariableOp", {handle, scalar<float>(0.5f)}, dtype_attr(DType::kFloat32));
  CHECK(values<float>(run1("ReadVariableOp", {handle}, dtype_attr(DType::kFloat32)))[0] == 3.0f);
  run("AssignVariableOp", {handle, scalar<float>(7.0f)}, dtype_attr(DType::kFloat32));
  Tensor now;
  REQUIRE(var->read(&now).ok());
  CHECK(values<float>(now)[0] == 7.0f);
}

TEST_CASE("variables reject values of the wrong dtype or shape", "[runtime][variables]") {
  auto var = new_variable(vec<int32_t>({1, 2}));
  Tensor handle = make_resource_tensor(var);
  CHECK(run_error("AssignVariableOp", {handle, vec<int32_t>({1, 2, 3})}, dtype_attr(DType::kInt32)).code() ==
        Code::kInvalidArgument);
  CHECK(run_error("ReadVariableOp", {handle}, dtype_attr(DType::kFloat32)).code() == Code::kInvalidArgument);
  auto uninitialized = std::make_shared<VariableResource>(DType::kInt32, Shape{});
  CHECK(run_error("ReadVariableOp", {make_resource_tensor(uninitialized)}, dtype_attr(DType::kInt32)).code() ==
        Code::kFailedPrecondition);
}

TEST_CASE("auto control deps order writes and reads in program order", "[passes][acd]") {
  // The seeds' example: a.assign(y * b); b.assign_add(x * a); return a + b  with a=1, b=2, x=1, y=2.
  auto a = new_variable(scalar<float>(1.0f));
  auto b = new_variable(scalar<float>(2.0f));
  Graph g;
  int x = 0, y = 0, ha = 0, hb = 0;
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{}, "x", &x).ok());
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{}, "y", &y).ok());
  REQUIRE(g.add_const(make_resource_tensor(a), "a", &ha).ok());
  REQUIRE(g.add_const(make_resource_tensor(b), "b", &hb).ok());
  const AttrMap f32 = dtype_attr(DType::kFloat32);
  int rb = 0, yb = 0, assign_a = 0, ra = 0, xa = 0, add_b = 0, ra2 = 0, rb2 = 0, sum = 0;
  REQUIRE(g.add_node("ReadVariableOp", "ReadVariableOp", {{hb, 0}}, f32, &rb).ok());
  REQUIRE(g.add_node("Mul", "mul", {{y, 0}, {rb, 0}}, AttrMap(), &yb).ok());
  REQUIRE(g.add_node("AssignVariableOp", "AssignVariableOp", {{ha, 0}, {yb, 0}}, f32, &assign_a).ok());
  REQUIRE(g.add_node("ReadVariableOp", "ReadVariableOp", {{ha, 0}}, f32, &ra).ok());
  REQUIRE(g.add_node("Mul", "mul", {{x, 0}, {ra, 0}}, AttrMap(), &xa).ok());
  REQUIRE(g.add_node("AssignAddVariableOp", "AssignAddVariableOp", {{hb, 0}, {xa, 0}}, f32, &add_b).ok());
  REQUIRE(g.add_node("ReadVariableOp", "ReadVariableOp", {{ha, 0}}, f32, &ra2).ok());
  REQUIRE(g.add_node("ReadVariableOp", "ReadVariableOp", {{hb, 0}}, f32, &rb2).ok());
  REQUIRE(g.add_node("AddV2", "add", {{ra2, 0}, {rb2, 0}}, AttrMap(), &sum).ok());
  g.arguments = {x, y};
  g.results = {{sum, 0}};
  add_auto_control_deps(g);
  CHECK(g.node(ra).control_inputs == std::vector<int>{assign_a});      // read a after writing a
  CHECK(g.node(add_b).control_inputs == std::vector<int>{rb});         // write b after reading b
  CHECK(g.node(rb2).control_inputs == std::vector<int>{add_b});
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  Tensor feeds[2] = {scalar<float>(1.0f), scalar<float>(2.0f)};
  std::vector<Tensor> results;
  REQUIRE(plan->run(feeds, 2, &results).ok());
  CHECK(values<float>(results[0])[0] == 10.0f);
}

TEST_CASE("a plan's reused buffers never overwrite a variable's value", "[runtime][variables]") {
  // v = x * 2 (a scalar intermediate the variable now holds); run twice: the first value, read
  // out of the variable, must survive the second run (whose Mul may reuse its buffer).
  auto v = new_variable(scalar<float>(0.0f));
  Graph g;
  int x = 0, hv = 0, two = 0, doubled = 0, assign = 0, plus = 0;
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{}, "x", &x).ok());
  REQUIRE(g.add_const(make_resource_tensor(v), "v", &hv).ok());
  REQUIRE(g.add_const(scalar<float>(2.0f), "two", &two).ok());
  REQUIRE(g.add_node("Mul", "mul", {{x, 0}, {two, 0}}, AttrMap(), &doubled).ok());
  REQUIRE(g.add_node("AssignVariableOp", "AssignVariableOp", {{hv, 0}, {doubled, 0}},
                     dtype_attr(DType::kFloat32), &assign).ok());
  REQUIRE(g.add_node("AddV2", "add", {{x, 0}, {two, 0}}, AttrMap(), &plus).ok());
  g.arguments = {x};
  g.results = {{plus, 0}};
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  std::vector<Tensor> results;
  Tensor feed = scalar<float>(3.0f);
  REQUIRE(plan->run(&feed, 1, &results).ok());
  Tensor first;
  REQUIRE(v->read(&first).ok());
  feed = scalar<float>(5.0f);
  REQUIRE(plan->run(&feed, 1, &results).ok());
  Tensor second;
  REQUIRE(v->read(&second).ok());
  CHECK(values<float>(first)[0] == 6.0f);
  CHECK(values<float>(second)[0] == 10.0f);
  CHECK(values<float>(results[0])[0] == 7.0f);
}

TEST_CASE("concurrent assign_add on one variable loses no update", "[runtime][variables][threads]") {
  // As TF's AssignAddVariableOp, which holds the variable's lock: read, add and store are one
  // step, so 4 threads x 5000 increments give 20000.
  auto var = new_variable(scalar<int32_t>(0));
  Tensor handle = make_resource_tensor(var);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5000; ++i) {
        std::vector<Tensor> out;
        const Tensor one = scalar<int32_t>(1);
        if (!execute_eager("AssignAddVariableOp", {handle, one}, dtype_attr(DType::kInt32), &out).ok()) return;
      }
    });
  }
  for (auto& t : threads) t.join();
  Tensor now;
  REQUIRE(var->read(&now).ok());
  CHECK(values<int32_t>(now)[0] == 20000);
}
