// Control outputs (the NoOp TF's functions end with), and how plans and GraphDef text treat
// control inputs. (tf.control_dependencies blocks: tests/cpp/tracing/test_control_dependency_scopes.cc.)
#include "harness.h"
#include "passes/graph_builder.h"

#include <algorithm>

#include "graphfn/passes/auto_control_deps.h"
#include "graphfn/runtime/plan.h"
#include "graphfn/serialize/graph_def_text.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

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
  CHECK(control_input_names(g, no_op) == std::vector<std::string>{"PrintV2"});
  (void)print;

  Graph pure;
  int y = 0;
  REQUIRE(pure.add_placeholder(DType::kFloat32, Shape{}, "y", &y).ok());
  CHECK(add_control_output_node(pure, {{y, 0}}) == -1);
  CHECK(pure.num_nodes() == 1);
}
