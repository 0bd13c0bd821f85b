// tf.control_dependencies blocks on a graph being built, control outputs (the NoOp TF's
// functions end with), and how plans and GraphDef text treat control inputs.
#include "harness.h"

#include <algorithm>

#include "graphfn/passes/auto_control_deps.h"
#include "graphfn/runtime/plan.h"
#include "graphfn/serialize/graph_def_text.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

std::vector<std::string> control_names(const Graph& g, int id) {
  std::vector<std::string> out;
  for (int c : g.node(id).control_inputs) out.push_back(g.node(c).name);
  return out;
}

int add(Graph& g, const char* op, const char* name, std::vector<Endpoint> inputs, AttrMap attrs = AttrMap()) {
  int id = -1;
  REQUIRE(g.add_node(op, name, inputs, std::move(attrs), &id).ok());
  return id;
}

int konst(Graph& g, Tensor value, const char* name) {
  int id = -1;
  REQUIRE(g.add_const(value, name, &id).ok());
  return id;
}

}  // namespace

TEST_CASE("nodes made inside a control block get its control inputs", "[ir][control_deps]") {
  Graph g;
  int x = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{}, "x", &x).ok());
  const int p = add(g, "NoOp", "p", {});
  g.push_control_dependencies({p, x}, false);
  const int y = konst(g, scalar<int32_t>(1), "add/y");      // no data inputs: gets both
  const int sum = add(g, "AddV2", "add", {{x, 0}, {y, 0}});  // add/y was made here: dominated
  g.push_control_dependencies({}, true);                     // control_dependencies(None)
  const int two = konst(g, scalar<int32_t>(2), "mul/y");
  const int mul = add(g, "Mul", "mul", {{x, 0}, {two, 0}});
  g.push_control_dependencies({sum, p}, false);              // the None block hides p's block
  const int one = konst(g, scalar<int32_t>(1), "sub/y");
  g.pop_control_dependencies();
  g.pop_control_dependencies();
  const int sub = add(g, "Sub", "sub", {{mul, 0}, {one, 0}});  // mul came from the None block
  g.pop_control_dependencies();
  const int after = konst(g, scalar<int32_t>(3), "after");

  CHECK(control_names(g, y) == std::vector<std::string>{"p", "x"});
  CHECK(control_names(g, sum).empty());
  CHECK(control_names(g, two).empty());
  CHECK(control_names(g, mul).empty());
  CHECK(control_names(g, one) == std::vector<std::string>{"add", "p"});
  g.push_control_dependencies({p}, false);
  g.push_control_dependencies({p, sum}, false);  // p is already applied: not repeated
  const int inner = konst(g, scalar<int32_t>(5), "inner");
  g.pop_control_dependencies();
  g.pop_control_dependencies();
  CHECK(control_names(g, inner) == std::vector<std::string>{"p", "add"});
  CHECK(control_names(g, sub) == std::vector<std::string>{"p", "x"});
  CHECK(control_names(g, after).empty());
  // A clone (what passes rewrite) has no open blocks.
  std::unique_ptr<Graph> copy = g.clone();
  copy->push_control_dependencies({p}, false);
  const int in_copy = konst(*copy, scalar<int32_t>(4), "c");
  CHECK(control_names(*copy, in_copy) == std::vector<std::string>{"p"});
  CHECK(g.num_nodes() == in_copy);
}

TEST_CASE("GraphDef text lists control inputs last, sorted by name", "[ir][control_deps]") {
  Graph g;
  const int b = add(g, "NoOp", "b", {});
  const int a = add(g, "NoOp", "a", {});
  const int j = add(g, "NoOp", "join", {});
  g.add_control_input(j, b);
  g.add_control_input(j, a);
  CHECK(node_def_text(g, j) == "name: \"join\"\nop: \"NoOp\"\ninput: \"^a\"\ninput: \"^b\"\n");
}

TEST_CASE("a pure node reached only through a control input does not run", "[runtime][control_deps]") {
  // As TF, whose grappler turns a node whose outputs only feed control edges into a NoOp: the
  // out-of-range gather never fails.
  Graph g;
  int x = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{}, "x", &x).ok());
  const int params = konst(g, vec<int32_t>({1, 2}), "params");
  const int indices = konst(g, vec<int32_t>({5}), "indices");
  const int axis = konst(g, scalar<int32_t>(0), "axis");
  const int gather = add(g, "GatherV2", "GatherV2", {{params, 0}, {indices, 0}, {axis, 0}});
  const int out = add(g, "Identity", "Identity", {{x, 0}});
  g.add_control_input(out, gather);
  g.arguments = {x};
  g.results = {{out, 0}};
  Tensor feed = scalar<int32_t>(1);
  std::vector<Tensor> results;
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  CHECK(plan->run(&feed, 1, &results).ok());
  const std::vector<std::string> steps = plan->step_names();
  CHECK(std::find(steps.begin(), steps.end(), "GatherV2") == steps.end());
}

TEST_CASE("a stateful control input runs before its dependent", "[runtime][control_deps]") {
  Graph g;
  int x = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{}, "x", &x).ok());
  const int text = konst(g, scalar<std::string>("before"), "StringFormat");
  const int print = add(g, "PrintV2", "PrintV2", {{text, 0}});
  g.push_control_dependencies({print}, false);
  const int out = add(g, "Identity", "Identity", {{x, 0}});
  g.pop_control_dependencies();
  g.arguments = {x};
  g.results = {{out, 0}};
  CHECK(control_names(g, out) == std::vector<std::string>{"PrintV2"});
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  const std::vector<std::string> steps = plan->step_names();
  const auto at = [&](const char* name) { return std::find(steps.begin(), steps.end(), name) - steps.begin(); };
  CHECK(at("PrintV2") < at("Identity"));
}

TEST_CASE("control outputs: one NoOp after the ops that must run", "[passes][control_deps]") {
  Graph g;
  int x = 0;
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{}, "x", &x).ok());
  const int text = konst(g, scalar<std::string>("A"), "StringFormat");
  const int print = add(g, "PrintV2", "PrintV2", {{text, 0}});
  AttrMap shape_attrs;
  shape_attrs.set("dtype", DType::kFloat32);
  const int shape = konst(g, vec<int32_t>({2}), "shape");
  add(g, "RandomUniform", "RandomUniform", {{shape, 0}}, shape_attrs);  // a legacy random op: left out
  const int no_op = add_control_output_node(g, {{x, 0}});
  REQUIRE(no_op >= 0);
  CHECK(g.node(no_op).name == "NoOp");
  CHECK(control_names(g, no_op) == std::vector<std::string>{"PrintV2"});
  (void)print;

  Graph pure;
  int y = 0;
  REQUIRE(pure.add_placeholder(DType::kFloat32, Shape{}, "y", &y).ok());
  CHECK(add_control_output_node(pure, {{y, 0}}) == -1);
  CHECK(pure.num_nodes() == 1);
}
