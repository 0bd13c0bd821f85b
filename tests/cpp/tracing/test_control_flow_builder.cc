// Captures and the control-flow nodes built from traced subgraphs (tracing/capture.h,
// tracing/control_flow_builder.h), run through a plan to check the result.
#include "harness.h"
#include "passes/graph_builder.h"

#include "graphfn/core/resource.h"
#include "graphfn/tracing/capture.h"
#include "graphfn/tracing/control_flow_builder.h"
#include "graphfn/tracing/finish_trace.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

int add(Graph& g, const std::string& op, const std::vector<Endpoint>& inputs, const std::string& name = "") {
  int id = 0;
  const Status s = g.add_node(op, trace_of(g).name_scope + (name.empty() ? op : name), inputs, AttrMap(), &id);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return id;
}

int placeholder_arg(Graph& g, DType dt, const std::string& name) {
  int id = 0;
  REQUIRE(g.add_placeholder(dt, Shape{}, name, &id).ok());
  g.arguments.push_back(id);
  return id;
}

}  // namespace

TEST_CASE("capture: a tensor of an enclosing graph becomes one placeholder per graph in between",
          "[tracing][capture]") {
  auto outer = std::make_shared<Graph>();
  const int x = placeholder_arg(*outer, DType::kFloat32, "x");
  auto middle = new_subgraph(outer, "cond/");
  auto inner = new_subgraph(middle, "cond/while/");
  CHECK(is_subgraph(*inner));
  Endpoint e;
  REQUIRE(capture(*inner, outer.get(), Endpoint{x, 0}, &e).ok());
  REQUIRE(e.node >= 0);
  CHECK(inner->node(e.node).op->name == "Placeholder");
  CHECK(inner->node(e.node).name == "cond/while/cond/x");
  REQUIRE(trace_of(*middle).captures.size() == 1);
  CHECK(trace_of(*middle).captures[0].outer == Endpoint{x, 0});
  REQUIRE(trace_of(*inner).captures.size() == 1);
  CHECK(trace_of(*inner).captures[0].outer == Endpoint{trace_of(*middle).captures[0].placeholder, 0});
  Endpoint again;
  REQUIRE(capture(*inner, outer.get(), Endpoint{x, 0}, &again).ok());
  CHECK(again == e);  // made once

  Graph unrelated;
  REQUIRE(capture(*inner, &unrelated, Endpoint{0, 0}, &e).ok());
  CHECK(e.node == -1);
}

TEST_CASE("capture_resource: one Const per variable in the outermost graph, captured inward",
          "[tracing][capture]") {
  auto outer = std::make_shared<Graph>();
  auto body = new_subgraph(outer, "while/");
  const Tensor handle = make_resource_tensor(std::make_shared<VariableResource>(DType::kFloat32, Shape{2}));
  Endpoint e1, e2;
  REQUIRE(capture_resource(*body, handle, "v", &e1).ok());
  REQUIRE(capture_resource(*body, handle, "v", &e2).ok());
  CHECK(e1 == e2);
  REQUIRE(trace_of(*body).captures.size() == 1);
  CHECK(outer->node(trace_of(*body).captures[0].outer.node).const_value() != nullptr);
  CHECK(body->node(e1.node).attrs.find("_handle_shape") != nullptr);  // shape inference sees [2]
  CHECK(capture_resource(*body, Tensor::scalar<float>(1), "v", &e1).code() == Code::kInvalidArgument);
}

TEST_CASE("build_branches: captures become inputs; the taken branch runs", "[tracing][control_flow]") {
  TraceContext& context = TraceContext::current();
  auto outer = std::make_shared<Graph>();
  const int pred = placeholder_arg(*outer, DType::kBool, "pred");
  const int x = placeholder_arg(*outer, DType::kFloat32, "x");
  auto then_graph = new_subgraph(outer, "cond/");
  auto else_graph = new_subgraph(outer, "cond/");
  Endpoint x_then;
  REQUIRE(capture(*then_graph, outer.get(), Endpoint{x, 0}, &x_then).ok());
  then_graph->results = {Endpoint{add(*then_graph, "Neg", {x_then}), 0}};
  int one = 0;
  REQUIRE(else_graph->add_const(Tensor::scalar<float>(1), "cond/one", &one).ok());
  else_graph->results = {Endpoint{one, 0}};

  std::vector<Endpoint> outputs;
  REQUIRE(build_branches(context, outer, "cond", Endpoint{pred, 0}, {then_graph, else_graph}, false, nullptr,
                         &outputs).ok());
  REQUIRE(outputs.size() == 1);
  const Node& identity = outer->node(outputs[0].node);
  CHECK(identity.name == "cond/Identity");
  const Node& node = outer->node(identity.inputs[0].node);
  CHECK(node.op->name == "StatelessIf");
  REQUIRE(node.inputs.size() == 2);  // the selector, then the captured x
  CHECK(node.inputs[1] == Endpoint{x, 0});
  CHECK(else_graph->arguments.size() == 1);  // an unused placeholder keeps the signatures alike
  CHECK(enclosing_graph(*then_graph) == nullptr);
  CHECK(is_subgraph(*then_graph));  // still known as a branch (errors about its tensors say so)
  CHECK(find_trace(*then_graph)->function_name == node.attrs.get_func("then_branch")->name);
  CHECK(node.attrs.get_func("then_branch")->name.rfind("cond_true_", 0) == 0);
  outer->results = outputs;

  std::vector<Tensor> out;
  REQUIRE(run_graph(*outer, {Tensor::scalar<bool>(true), Tensor::scalar<float>(3)}, &out).ok());
  CHECK(out[0].data<float>()[0] == -3.0f);
  REQUIRE(run_graph(*outer, {Tensor::scalar<bool>(false), Tensor::scalar<float>(3)}, &out).ok());
  CHECK(out[0].data<float>()[0] == 1.0f);
}

TEST_CASE("build_branches rejects mismatched branches and graphs not traced here", "[tracing][control_flow]") {
  TraceContext& context = TraceContext::current();
  auto outer = std::make_shared<Graph>();
  const int pred = placeholder_arg(*outer, DType::kBool, "pred");
  auto a = new_subgraph(outer, "");
  auto b = new_subgraph(outer, "");
  int f = 0, i = 0;
  REQUIRE(a->add_const(Tensor::scalar<float>(1), "a", &f).ok());
  REQUIRE(b->add_const(Tensor::scalar<int32_t>(1), "b", &i).ok());
  a->results = {Endpoint{f, 0}};
  b->results = {Endpoint{i, 0}};
  std::vector<Endpoint> outputs;
  Status s = build_branches(context, outer, "cond", Endpoint{pred, 0}, {a, b}, false, nullptr, &outputs);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() == "cond: branches must return the same number and types of tensors");
  auto stranger = std::make_shared<Graph>();  // not a subgraph of `outer`
  s = build_branches(context, outer, "cond", Endpoint{pred, 0}, {a, stranger}, false, nullptr, &outputs);
  CHECK(s.code() == Code::kInvalidArgument);
  s = build_branches(context, outer, "cond", Endpoint{pred, 0}, {a}, false, nullptr, &outputs);
  CHECK(s.message() == "cond: wrong number of branches");
}

TEST_CASE("build_while: captured tensors are passed through the body; control captures reach the node",
          "[tracing][control_flow]") {
  TraceContext& context = TraceContext::current();
  auto outer = std::make_shared<Graph>();
  const int start = placeholder_arg(*outer, DType::kInt32, "i");
  const int limit = placeholder_arg(*outer, DType::kInt32, "n");
  const int before = add(*outer, "NoOp", {}, "before");

  auto cond = new_subgraph(outer, "while/");
  auto body = new_subgraph(outer, "while/");
  const int ci = placeholder_arg(*cond, DType::kInt32, "while/i");
  Endpoint n_in_cond;
  REQUIRE(capture(*cond, outer.get(), Endpoint{limit, 0}, &n_in_cond).ok());
  cond->results = {Endpoint{add(*cond, "Less", {Endpoint{ci, 0}, n_in_cond}), 0}};
  const int bi = placeholder_arg(*body, DType::kInt32, "while/i");
  int two = 0;
  REQUIRE(body->add_const(Tensor::scalar<int32_t>(2), "while/two", &two).ok());
  body->results = {Endpoint{add(*body, "AddV2", {Endpoint{bi, 0}, Endpoint{two, 0}}), 0}};
  context.capture_control(body, ControlCapture{outer, before});
  context.capture_control(body, ControlCapture{outer, before});  // once

  std::vector<Endpoint> outputs;
  REQUIRE(build_while(context, outer, "while", {Endpoint{start, 0}}, cond, body, 10, nullptr, &outputs).ok());
  REQUIRE(outputs.size() == 1);
  const Node& node = outer->node(outputs[0].node);
  CHECK(node.op->name == "StatelessWhile");
  CHECK(node.inputs.size() == 2);  // i, and the captured n as extra loop state
  CHECK(node.control_inputs == std::vector<int>{before});
  CHECK(body->results.size() == 2);  // n passed through
  CHECK(context.take_control_captures(body.get()).empty());  // consumed
  outer->results = outputs;

  std::vector<Tensor> out;
  REQUIRE(run_graph(*outer, {Tensor::scalar<int32_t>(1), Tensor::scalar<int32_t>(8)}, &out).ok());
  CHECK(out[0].data<int32_t>()[0] == 9);

  std::vector<Endpoint> none;
  auto lonely = new_subgraph(outer, "");
  CHECK(build_while(context, outer, "w2", {Endpoint{start, 0}}, lonely, lonely, 10, nullptr, &none).code() ==
        Code::kInvalidArgument);
}

TEST_CASE("control captures from further out are forwarded to the enclosing subgraph", "[tracing][control_flow]") {
  TraceContext& context = TraceContext::current();
  auto outer = std::make_shared<Graph>();
  const int pred = placeholder_arg(*outer, DType::kBool, "pred");
  const int before = add(*outer, "NoOp", {}, "before");
  auto branch = new_subgraph(outer, "cond/");         // a branch of a cond in `outer`
  auto inner_a = new_subgraph(branch, "cond/cond/");  // a cond inside that branch
  auto inner_b = new_subgraph(branch, "cond/cond/");
  int c1 = 0, c2 = 0;
  REQUIRE(inner_a->add_const(Tensor::scalar<float>(1), "a", &c1).ok());
  REQUIRE(inner_b->add_const(Tensor::scalar<float>(2), "b", &c2).ok());
  inner_a->results = {Endpoint{c1, 0}};
  inner_b->results = {Endpoint{c2, 0}};
  context.capture_control(inner_a, ControlCapture{outer, before});
  std::vector<Endpoint> outputs;
  Endpoint selector;
  REQUIRE(capture(*branch, outer.get(), Endpoint{pred, 0}, &selector).ok());
  REQUIRE(build_branches(context, branch, "cond/cond", selector, {inner_a, inner_b}, false, nullptr, &outputs).ok());
  const std::vector<ControlCapture> forwarded = context.take_control_captures(branch.get());
  REQUIRE(forwarded.size() == 1);
  CHECK(forwarded[0].owner == outer);
  CHECK(forwarded[0].node == before);
}

TEST_CASE("finish_trace: results wait for the control output; bad results are errors", "[tracing][finish_trace]") {
  auto g = std::make_shared<Graph>();
  const int x = placeholder_arg(*g, DType::kFloat32, "x");
  int no_op = 0;
  REQUIRE(g->add_node("NoOp", "NoOp", {}, AttrMap(), &no_op).ok());
  const int y = add(*g, "Identity", {Endpoint{x, 0}});
  REQUIRE(finish_trace(*g, {Endpoint{y, 0}}, no_op).ok());
  CHECK(g->results == std::vector<Endpoint>{Endpoint{y, 0}});
  CHECK(g->node(y).control_inputs == std::vector<int>{no_op});
  CHECK(g->node(x).control_inputs.empty());  // earlier than the NoOp: never made to wait for it

  CHECK(finish_trace(*g, {Endpoint{99, 0}}, -1).code() == Code::kInvalidArgument);
  CHECK(finish_trace(*g, {Endpoint{y, 3}}, -1).code() == Code::kInvalidArgument);
  CHECK(finish_trace(*g, {Endpoint{y, 0}}, 99).code() == Code::kInvalidArgument);
}
