// tf.control_dependencies while tracing (tracing/control_dependency_scopes.h, kept per graph by
// tracing/graph_trace.h): TF's controller-stack rules, and the blocks reaching every node added
// to the graph, whoever adds it.
#include "harness.h"
#include "passes/graph_builder.h"

#include <algorithm>

#include "graphfn/runtime/plan.h"
#include "graphfn/tracing/capture.h"
#include "graphfn/tracing/control_flow_builder.h"
#include "graphfn/tracing/graph_trace.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("nodes made inside a control block get its control inputs", "[tracing][control_deps]") {
  TestGraph t;
  Graph& g = t.g;
  const int x = t.placeholder(DType::kInt32, Shape{}, "x");
  const int p = t.op("NoOp", {}, AttrMap(), "p");
  push_control_dependencies(g, {p, x}, false);
  const int y = t.constant(scalar<int32_t>(1), "add/y");      // no data inputs: gets both
  const int sum = t.op("AddV2", {x, y}, AttrMap(), "add");  // add/y was made here: dominated
  push_control_dependencies(g, {}, true);                    // control_dependencies(None)
  const int two = t.constant(scalar<int32_t>(2), "mul/y");
  const int mul = t.op("Mul", {x, two}, AttrMap(), "mul");
  push_control_dependencies(g, {sum, p}, false);             // the None block hides p's block
  const int one = t.constant(scalar<int32_t>(1), "sub/y");
  pop_control_dependencies(g);
  pop_control_dependencies(g);
  const int sub = t.op("Sub", {mul, one}, AttrMap(), "sub");  // mul came from the None block
  pop_control_dependencies(g);
  const int after = t.constant(scalar<int32_t>(3), "after");

  CHECK(control_input_names(g, y) == std::vector<std::string>{"p", "x"});
  CHECK(control_input_names(g, sum).empty());
  CHECK(control_input_names(g, two).empty());
  CHECK(control_input_names(g, mul).empty());
  CHECK(control_input_names(g, one) == std::vector<std::string>{"add", "p"});
  push_control_dependencies(g, {p}, false);
  push_control_dependencies(g, {p, sum}, false);  // p is already applied: not repeated
  const int inner = t.constant(scalar<int32_t>(5), "inner");
  pop_control_dependencies(g);
  pop_control_dependencies(g);
  CHECK(control_input_names(g, inner) == std::vector<std::string>{"p", "add"});
  CHECK(control_input_names(g, sub) == std::vector<std::string>{"p", "x"});
  CHECK(control_input_names(g, after).empty());
  pop_control_dependencies(g);  // nothing open: nothing happens
  // A clone (what passes rewrite) has no open blocks, and blocks opened on it stay there.
  push_control_dependencies(g, {p}, false);
  std::unique_ptr<Graph> copy = g.clone();
  CHECK(find_trace(*copy) == nullptr);
  int in_copy = 0, in_copy2 = 0;
  REQUIRE(copy->add_const(scalar<int32_t>(4), "c", &in_copy).ok());
  CHECK(control_input_names(*copy, in_copy).empty());
  push_control_dependencies(*copy, {sum}, false);
  REQUIRE(copy->add_const(scalar<int32_t>(4), "c2", &in_copy2).ok());
  CHECK(control_input_names(*copy, in_copy2) == std::vector<std::string>{"add"});
  CHECK(g.num_nodes() == in_copy);
  pop_control_dependencies(g);
}

TEST_CASE("the ops a block waits for are marked as having manual control dependencies", "[tracing][control_deps]") {
  // TF sets _has_manual_control_dependencies on each op named in tf.control_dependencies.
  TestGraph t;
  Graph& g = t.g;
  const int p = t.op("NoOp", {}, AttrMap(), "p");
  const int q = t.op("NoOp", {}, AttrMap(), "q");
  push_control_dependencies(g, {p}, false);
  pop_control_dependencies(g);
  const AttrValue* mark = g.node(p).attrs.find("_has_manual_control_dependencies");
  REQUIRE(mark != nullptr);
  CHECK(std::get<bool>(*mark));
  CHECK(g.node(q).attrs.find("_has_manual_control_dependencies") == nullptr);
}

TEST_CASE("a stateful control input runs before its dependent", "[tracing][control_deps]") {
  TestGraph t;
  Graph& g = t.g;
  const int x = t.placeholder(DType::kInt32, Shape{}, "x");
  const int text = t.constant(scalar<std::string>("before"), "StringFormat");
  const int print = t.op("PrintV2", {text}, AttrMap(), "PrintV2");
  push_control_dependencies(g, {print}, false);
  const int out = t.op("Identity", {x}, AttrMap(), "Identity");
  pop_control_dependencies(g);
  t.results({out});
  CHECK(control_input_names(g, out) == std::vector<std::string>{"PrintV2"});
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  const std::vector<std::string> steps = plan->step_names();
  const auto at = [&](const char* name) { return std::find(steps.begin(), steps.end(), name) - steps.begin(); };
  CHECK(at("PrintV2") < at("Identity"));
}

TEST_CASE("a block reaches nodes added by control-flow building too", "[tracing][control_deps]") {
  // As TF, where the If op made by tf.cond inside the block waits for the block's ops; its
  // Identity outputs consume the If, so they do not.
  auto outer = std::make_shared<Graph>();
  int pred = 0, p = 0, a = 0, b = 0;
  REQUIRE(outer->add_placeholder(DType::kBool, Shape{}, "pred", &pred).ok());
  REQUIRE(outer->add_node("NoOp", "p", {}, AttrMap(), &p).ok());
  auto then_graph = new_subgraph(outer, "cond/");
  auto else_graph = new_subgraph(outer, "cond/");
  REQUIRE(then_graph->add_const(scalar<float>(1), "cond/a", &a).ok());
  REQUIRE(else_graph->add_const(scalar<float>(2), "cond/b", &b).ok());
  then_graph->results = {Endpoint{a, 0}};
  else_graph->results = {Endpoint{b, 0}};
  push_control_dependencies(*outer, {p}, false);
  std::vector<Endpoint> outputs;
  REQUIRE(build_branches(TraceContext::current(), outer, outer->unique_name("cond"), Endpoint{pred, 0},
                         {then_graph, else_graph}, false, nullptr, &outputs).ok());
  pop_control_dependencies(*outer);
  const int identity = outputs.at(0).node;
  const int if_node = outer->node(identity).inputs.at(0).node;
  CHECK(outer->node(if_node).op->name == "StatelessIf");
  CHECK(control_input_names(*outer, if_node) == std::vector<std::string>{"p"});
  CHECK(control_input_names(*outer, identity).empty());
  // The branches' own nodes were made in their graphs, outside the block.
  CHECK(control_input_names(*then_graph, then_graph->results[0].node).empty());
}
