// If / While nodes: sub-plans, the taken branch only, loops (nested, zero iterations,
// maximum_iterations), errors inside a branch or body, dead loop variables, GraphDef text.
#include "harness.h"
#include "passes/graph_builder.h"

#include "graphfn/passes/pass_manager.h"
#include "graphfn/runtime/plan.h"
#include "graphfn/serialize/graph_def_text.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

// A subgraph: placeholders for `args`, then `build(graph, placeholder ids)` adds nodes and
// returns the results.
template <typename Build>
std::shared_ptr<Graph> subgraph(const std::vector<DType>& args, const std::string& scope, Build build,
                                const Shape& arg_shape = Shape()) {
  auto g = std::make_shared<Graph>();
  std::vector<int> ids;
  for (DType dt : args) {
    int id = 0;
    REQUIRE(g->add_placeholder(dt, arg_shape, scope + "Placeholder", &id).ok());
    g->arguments.push_back(id);
    ids.push_back(id);
  }
  g->results = build(*g, ids);
  return g;
}

int add(Graph& g, const std::string& op, const std::vector<Endpoint>& inputs, const std::string& name,
        AttrMap attrs = AttrMap()) {
  int id = 0;
  const Status s = g.add_node(op, name, inputs, std::move(attrs), &id);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return id;
}

int constant(Graph& g, const Tensor& value, const std::string& name) {
  int id = 0;
  REQUIRE(g.add_const(value, name, &id).ok());
  return id;
}

int add_if(Graph& g, Endpoint pred, const std::vector<Endpoint>& inputs, std::shared_ptr<Graph> then_g,
           std::shared_ptr<Graph> else_g, const std::vector<DType>& tout) {
  std::vector<Endpoint> all{pred};
  all.insert(all.end(), inputs.begin(), inputs.end());
  std::vector<DType> tin;
  for (const Endpoint& e : inputs) tin.push_back(g.dtype(e));
  return add(g, "StatelessIf", all, "cond",
             attrs_of({{"Tin", tin}, {"Tout", tout}, {"then_branch", FuncAttr{"cond_true_1", then_g}},
                       {"else_branch", FuncAttr{"cond_false_2", else_g}}}));
}

int add_while(Graph& g, const std::vector<Endpoint>& inputs, std::shared_ptr<Graph> cond,
              std::shared_ptr<Graph> body, const std::string& name = "while") {
  std::vector<DType> t;
  for (const Endpoint& e : inputs) t.push_back(g.dtype(e));
  return add(g, "StatelessWhile", inputs, name,
             attrs_of({{"T", t}, {"cond", FuncAttr{name + "_cond_1", cond}}, {"body", FuncAttr{name + "_body_2", body}}}));
}

const std::vector<DType> kIntInt{DType::kInt32, DType::kInt32};

// cond: i < n; body: (i + 1, n). Loop state (i, n).
std::shared_ptr<Graph> count_cond() {
  return subgraph(kIntInt, "while/", [](Graph& g, const std::vector<int>& a) {
    return std::vector<Endpoint>{{add(g, "Less", {{a[0], 0}, {a[1], 0}}, "while/Less"), 0}};
  });
}
std::shared_ptr<Graph> count_body() {
  return subgraph(kIntInt, "while/", [](Graph& g, const std::vector<int>& a) {
    const int one = constant(g, scalar<int32_t>(1), "while/add/y");
    return std::vector<Endpoint>{{add(g, "AddV2", {{a[0], 0}, {one, 0}}, "while/add"), 0}, {a[1], 0}};
  });
}

// f(n) = while (i < n) i += 1, from i = start.
void build_count(Graph& g, int32_t start) {
  int n = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape(), "n", &n).ok());
  g.arguments = {n};
  const int i = constant(g, scalar<int32_t>(start), "Const");
  const int loop = add_while(g, {{i, 0}, {n, 0}}, count_cond(), count_body());
  g.results = {{loop, 0}};
}

int32_t run_int(const Graph& g, const std::vector<Tensor>& feeds) {
  std::vector<Tensor> out;
  const Status s = run_graph(g, feeds, &out);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return *out[0].data<int32_t>();
}

}  // namespace

TEST_CASE("If runs only the taken branch", "[runtime][control_flow]") {
  Graph g;
  int p = 0, x = 0;
  REQUIRE(g.add_placeholder(DType::kBool, Shape(), "p", &p).ok());
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{3}, "x", &x).ok());
  g.arguments = {p, x};
  auto then_g = subgraph({DType::kInt32}, "cond/", [](Graph& b, const std::vector<int>& a) {
    return std::vector<Endpoint>{{add(b, "Neg", {{a[0], 0}}, "cond/Neg"), 0}};
  }, Shape{3});
  // The else branch fails when it runs: reshaping 3 values to 5.
  auto else_g = subgraph({DType::kInt32}, "cond/", [](Graph& b, const std::vector<int>& a) {
    const int shape = constant(b, vec<int32_t>({5}), "cond/Reshape/shape");
    return std::vector<Endpoint>{{add(b, "Reshape", {{a[0], 0}, {shape, 0}}, "cond/Reshape"), 0}};
  }, Shape::unknown_rank());
  const int c = add_if(g, {p, 0}, {{x, 0}}, then_g, else_g, {DType::kInt32});
  g.results = {{c, 0}};
  std::vector<Tensor> out;
  REQUIRE(run_graph(g, {scalar<bool>(true), vec<int32_t>({1, 2, 3})}, &out).ok());
  CHECK(values<int32_t>(out[0]) == std::vector<int32_t>{-1, -2, -3});

  const Status s = run_graph(g, {scalar<bool>(false), vec<int32_t>({1, 2, 3})}, &out);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() ==
        "Graph execution error:\n\nDetected at node cond/Reshape:\nInput to reshape is a tensor with 3 values, but the "
        "requested shape has 5\n\t [[{{node cond/Reshape}}]] [Op:f]");
}

TEST_CASE("If wants a bool predicate with one element, as TF's lowered Switch", "[runtime][control_flow]") {
  auto branch = [] {
    return subgraph({}, "cond/", [](Graph& b, const std::vector<int>&) {
      return std::vector<Endpoint>{{constant(b, scalar<int32_t>(1), "cond/Const"), 0}};
    });
  };
  Graph g;
  int p = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape(), "p", &p).ok());
  g.arguments = {p};
  g.results = {{add_if(g, {p, 0}, {}, branch(), branch(), {DType::kInt32}), 0}};
  std::shared_ptr<const Plan> plan;
  const Status s = Plan::build(g, &plan, "f");
  CHECK(s.message() ==
        "Input 'pred' passed int32 expected bool while building NodeDef 'cond/switch_pred/_2' using "
        "Op<name=Switch; signature=data:T, pred:bool -> output_false:T, output_true:T; attr=T:type> [Op:f]");

  Graph h;
  REQUIRE(h.add_placeholder(DType::kBool, Shape{-1}, "p", &p).ok());
  h.arguments = {p};
  h.results = {{add_if(h, {p, 0}, {}, branch(), branch(), {DType::kInt32}), 0}};
  std::vector<Tensor> out;
  const Status run = run_graph(h, {vec<bool>({true, false})}, &out);
  CHECK(run.message() ==
        "Graph execution error:\n\nDetected at node cond/switch_pred:\nThe second input must be a scalar, but it has "
        "shape [2]\n\t [[{{node cond/switch_pred}}]] [Op:f]");
  REQUIRE(run_graph(h, {vec<bool>({true})}, &out).ok());
  CHECK(*out[0].data<int32_t>() == 1);
}

TEST_CASE("Case runs the indexed branch, the last one when out of range", "[runtime][control_flow]") {
  auto branch = [](int32_t k) {
    return subgraph({DType::kInt32}, "switch_case/indexed_case/", [k](Graph& b, const std::vector<int>& a) {
      const int c = constant(b, scalar<int32_t>(k), "switch_case/indexed_case/Const");
      return std::vector<Endpoint>{{add(b, "Mul", {{a[0], 0}, {c, 0}}, "switch_case/indexed_case/mul"), 0}};
    });
  };
  Graph g;
  int i = 0, x = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape(), "i", &i).ok());
  REQUIRE(g.add_placeholder(DType::kInt32, Shape(), "x", &x).ok());
  g.arguments = {i, x};
  const int c = add(g, "StatelessCase", {{i, 0}, {x, 0}}, "switch_case/indexed_case",
                    attrs_of({{"Tin", std::vector<DType>{DType::kInt32}}, {"Tout", std::vector<DType>{DType::kInt32}},
                              {"branches", std::vector<FuncAttr>{{"b0", branch(10)}, {"b1", branch(20)},
                                                                 {"b2", branch(30)}}}}));
  g.results = {{c, 0}};
  CHECK(run_int(g, {scalar<int32_t>(0), scalar<int32_t>(2)}) == 20);
  CHECK(run_int(g, {scalar<int32_t>(1), scalar<int32_t>(2)}) == 40);
  CHECK(run_int(g, {scalar<int32_t>(2), scalar<int32_t>(2)}) == 60);
  CHECK(run_int(g, {scalar<int32_t>(9), scalar<int32_t>(2)}) == 60);
  CHECK(run_int(g, {scalar<int32_t>(-1), scalar<int32_t>(2)}) == 60);
  std::unique_ptr<Graph> optimized;
  OptimizerOptions options;
  options.verify = true;
  REQUIRE(optimized_copy(g, options, &optimized).ok());
  CHECK(run_int(*optimized, {scalar<int32_t>(1), scalar<int32_t>(3)}) == 60);
  const std::string text = graph_def_text(g);
  CHECK(text.find("      list {\n        func {\n          name: \"b0\"\n        }\n        func {\n") !=
        std::string::npos);
}

TEST_CASE("While loops its body while the cond holds", "[runtime][control_flow]") {
  Graph g;
  build_count(g, 0);
  CHECK(run_int(g, {scalar<int32_t>(10)}) == 10);
  CHECK(run_int(g, {scalar<int32_t>(1)}) == 1);
  CHECK(run_int(g, {scalar<int32_t>(0)}) == 0);   // zero iterations
  CHECK(run_int(g, {scalar<int32_t>(-5)}) == 0);  // zero iterations
  // The same plan, optimized (subgraphs too), gives the same answers.
  std::unique_ptr<Graph> optimized;
  REQUIRE(optimized_copy(g, OptimizerOptions(), &optimized).ok());
  CHECK(run_int(*optimized, {scalar<int32_t>(100000)}) == 100000);
}

TEST_CASE("maximum_iterations: the cond also compares a loop counter", "[runtime][control_flow]") {
  // State (counter, max, i, n); cond: counter < max && i < n; body: (counter + 1, max, i + 1, n).
  const std::vector<DType> four(4, DType::kInt32);
  auto cond = subgraph(four, "while/", [](Graph& b, const std::vector<int>& a) {
    const int less = add(b, "Less", {{a[2], 0}, {a[3], 0}}, "while/Less");
    const int limit = add(b, "Less", {{a[0], 0}, {a[1], 0}}, "while/Less_1");
    return std::vector<Endpoint>{{add(b, "LogicalAnd", {{limit, 0}, {less, 0}}, "while/LogicalAnd"), 0}};
  });
  auto body = subgraph(four, "while/", [](Graph& b, const std::vector<int>& a) {
    const int one = constant(b, scalar<int32_t>(1), "while/add/y");
    const int i = add(b, "AddV2", {{a[2], 0}, {one, 0}}, "while/add");
    const int counter = add(b, "AddV2", {{a[0], 0}, {one, 0}}, "while/add_1");
    return std::vector<Endpoint>{{counter, 0}, {a[1], 0}, {i, 0}, {a[3], 0}};
  });
  Graph g;
  int n = 0, max = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape(), "n", &n).ok());
  REQUIRE(g.add_placeholder(DType::kInt32, Shape(), "max", &max).ok());
  g.arguments = {n, max};
  const int zero = constant(g, scalar<int32_t>(0), "Const");
  const int loop = add_while(g, {{zero, 0}, {max, 0}, {zero, 0}, {n, 0}}, cond, body);
  g.results = {{loop, 2}, {loop, 0}};
  std::vector<Tensor> out;
  REQUIRE(run_graph(g, {scalar<int32_t>(10), scalar<int32_t>(3)}, &out).ok());
  CHECK(*out[0].data<int32_t>() == 3);
  CHECK(*out[1].data<int32_t>() == 3);
  REQUIRE(run_graph(g, {scalar<int32_t>(2), scalar<int32_t>(3)}, &out).ok());
  CHECK(*out[0].data<int32_t>() == 2);
}

TEST_CASE("nested While: an inner loop in the body", "[runtime][control_flow]") {
  // sum over i < n of (number of j < i): 0 + 1 + ... + (n - 1). State (i, s, n).
  const std::vector<DType> three(3, DType::kInt32);
  auto cond = subgraph(three, "while/", [](Graph& b, const std::vector<int>& a) {
    return std::vector<Endpoint>{{add(b, "Less", {{a[0], 0}, {a[2], 0}}, "while/Less"), 0}};
  });
  auto body = subgraph(three, "while/", [](Graph& b, const std::vector<int>& a) {
    const int zero = constant(b, scalar<int32_t>(0), "while/Const");
    // inner: j counts from 0 to i
    const int inner = add_while(b, {{zero, 0}, {a[0], 0}}, count_cond(), count_body(), "while/while");
    const int one = constant(b, scalar<int32_t>(1), "while/add/y");
    const int i = add(b, "AddV2", {{a[0], 0}, {one, 0}}, "while/add");
    const int s = add(b, "AddV2", {{a[1], 0}, {inner, 0}}, "while/add_1");
    return std::vector<Endpoint>{{i, 0}, {s, 0}, {a[2], 0}};
  });
  Graph g;
  int n = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape(), "n", &n).ok());
  g.arguments = {n};
  const int zero = constant(g, scalar<int32_t>(0), "Const");
  const int loop = add_while(g, {{zero, 0}, {zero, 0}, {n, 0}}, cond, body);
  g.results = {{loop, 1}};
  CHECK(run_int(g, {scalar<int32_t>(5)}) == 10);
  CHECK(run_int(g, {scalar<int32_t>(0)}) == 0);
}

TEST_CASE("an error in a loop body names the inner node", "[runtime][control_flow]") {
  // body: i + gather([1, 2], i): fails once i reaches 2.
  auto body = subgraph(kIntInt, "while/", [](Graph& b, const std::vector<int>& a) {
    const int params = constant(b, vec<int32_t>({1, 2}), "while/GatherV2/params");
    const int axis = constant(b, scalar<int32_t>(0), "while/GatherV2/axis");
    const int gather = add(b, "GatherV2", {{params, 0}, {a[0], 0}, {axis, 0}}, "while/GatherV2");
    return std::vector<Endpoint>{{add(b, "AddV2", {{a[0], 0}, {gather, 0}}, "while/add"), 0}, {a[1], 0}};
  });
  Graph g;
  int n = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape(), "n", &n).ok());
  g.arguments = {n};
  const int zero = constant(g, scalar<int32_t>(0), "Const");
  g.results = {{add_while(g, {{zero, 0}, {n, 0}}, count_cond(), body), 0}};
  std::vector<Tensor> out;
  const Status s = run_graph(g, {scalar<int32_t>(10)}, &out);
  CHECK(s.message() ==
        "Graph execution error:\n\nDetected at node while/GatherV2:\nindices = 3 is not in [0, 2)\n\t [[{{node "
        "while/GatherV2}}]] [Op:f]");
  CHECK(run_int(g, {scalar<int32_t>(1)}) == 1);
}

TEST_CASE("a loop variable nobody reads is not computed", "[passes][control_flow]") {
  // State (counter, i, n): the counter's output is unused and the cond ignores it.
  const std::vector<DType> three(3, DType::kInt32);
  auto cond = subgraph(three, "while/", [](Graph& b, const std::vector<int>& a) {
    return std::vector<Endpoint>{{add(b, "Less", {{a[1], 0}, {a[2], 0}}, "while/Less"), 0}};
  });
  auto body = subgraph(three, "while/", [](Graph& b, const std::vector<int>& a) {
    const int one = constant(b, scalar<int32_t>(1), "while/add/y");
    const int counter = add(b, "AddV2", {{a[0], 0}, {one, 0}}, "while/add_1");
    const int i = add(b, "AddV2", {{a[1], 0}, {one, 0}}, "while/add");
    return std::vector<Endpoint>{{counter, 0}, {i, 0}, {a[2], 0}};
  });
  Graph g;
  int n = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape(), "n", &n).ok());
  g.arguments = {n};
  const int zero = constant(g, scalar<int32_t>(0), "Const");
  const int loop = add_while(g, {{zero, 0}, {zero, 0}, {n, 0}}, cond, body);
  g.results = {{loop, 1}};
  std::unique_ptr<Graph> optimized;
  OptimizerOptions options;
  options.verify = true;
  REQUIRE(optimized_copy(g, options, &optimized).ok());
  const Graph& pruned = *optimized->node(loop).attrs.get_func("body")->graph;
  CHECK(pruned.results[0] == Endpoint{pruned.arguments[0], 0});  // passed through
  CHECK(pruned.results[1] == body->results[1]);
  CHECK(body->results[0].node != body->arguments[0]);  // the traced graph is untouched
  CHECK(run_int(*optimized, {scalar<int32_t>(7)}) == 7);

  g.results.push_back({loop, 0});  // now the counter is read: it stays
  REQUIRE(optimized_copy(g, options, &optimized).ok());
  const Graph& kept = *optimized->node(loop).attrs.get_func("body")->graph;
  CHECK(kept.results[0].node != kept.arguments[0]);
}

TEST_CASE("GraphDef text lists subgraphs in a library", "[serialize][control_flow]") {
  Graph g;
  build_count(g, 0);
  const std::string text = graph_def_text(g);
  CHECK(text.find("  op: \"StatelessWhile\"\n") != std::string::npos);
  CHECK(text.find("      func {\n        name: \"while_body_2\"\n      }\n") != std::string::npos);
  CHECK(text.find("library {\n  function {\n    signature {\n      name: \"while_body_2\"\n      input_arg {\n"
                  "        name: \"while_placeholder\"\n        type: DT_INT32\n      }\n") != std::string::npos);
  CHECK(text.find("      input: \"while/add/y:output:0\"\n") != std::string::npos);
  CHECK(text.find("    ret {\n      key: \"while_add\"\n      value: \"while/add:z:0\"\n    }\n") != std::string::npos);
  CHECK(text.find("name: \"while_cond_1\"") != std::string::npos);
}

TEST_CASE("buffers reused across iterations and runs never alias a result", "[runtime][control_flow]") {
  // The body's scalars are overwritten in place from the second iteration on; results of
  // earlier runs, and the If's outputs of earlier runs, keep their values.
  Graph g;
  build_count(g, 0);
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  std::vector<Tensor> first, second;
  Tensor n = scalar<int32_t>(5);
  REQUIRE(plan->run(&n, 1, &first).ok());
  n = scalar<int32_t>(9);
  REQUIRE(plan->run(&n, 1, &second).ok());
  CHECK(*first[0].data<int32_t>() == 5);
  CHECK(*second[0].data<int32_t>() == 9);
  CHECK(first[0].buffer() != second[0].buffer());
  CHECK(first[0].buffer().use_count() == 1);  // the frame keeps no reference to a result
  CHECK(n.buffer().use_count() == 1);         // nor to the caller's feed

  // If in a loop: cond(i % 2 == 0, i + 10, i - 10) summed; results of two runs stay apart.
  auto then_g = subgraph(kIntInt, "cond/", [](Graph& b, const std::vector<int>& a) {
    const int ten = constant(b, scalar<int32_t>(10), "cond/y");
    return std::vector<Endpoint>{{add(b, "AddV2", {{a[0], 0}, {ten, 0}}, "cond/add"), 0}};
  });
  auto else_g = subgraph(kIntInt, "cond/", [](Graph& b, const std::vector<int>& a) {
    const int ten = constant(b, scalar<int32_t>(10), "cond/y");
    return std::vector<Endpoint>{{add(b, "Sub", {{a[0], 0}, {ten, 0}}, "cond/sub"), 0}};
  });
  const std::vector<DType> three(3, DType::kInt32);
  auto cond = subgraph(three, "while/", [](Graph& b, const std::vector<int>& a) {
    return std::vector<Endpoint>{{add(b, "Less", {{a[0], 0}, {a[2], 0}}, "while/Less"), 0}};
  });
  auto body = subgraph(three, "while/", [&](Graph& b, const std::vector<int>& a) {
    const int one = constant(b, scalar<int32_t>(1), "while/add/y");
    const int two = constant(b, scalar<int32_t>(2), "while/mod/y");
    const int zero = constant(b, scalar<int32_t>(0), "while/Equal/y");
    const int mod = add(b, "FloorMod", {{a[0], 0}, {two, 0}}, "while/mod");
    const int even = add(b, "Equal", {{mod, 0}, {zero, 0}}, "while/Equal");
    const int branch = add_if(b, {even, 0}, {{a[0], 0}, {a[1], 0}}, then_g, else_g, {DType::kInt32});
    const int sum = add(b, "AddV2", {{a[1], 0}, {branch, 0}}, "while/add_1");
    return std::vector<Endpoint>{{add(b, "AddV2", {{a[0], 0}, {one, 0}}, "while/add"), 0}, {sum, 0}, {a[2], 0}};
  });
  Graph h;
  int limit = 0;
  REQUIRE(h.add_placeholder(DType::kInt32, Shape(), "n", &limit).ok());
  h.arguments = {limit};
  const int zero = constant(h, scalar<int32_t>(0), "Const");
  const int loop = add_while(h, {{zero, 0}, {zero, 0}, {limit, 0}}, cond, body);
  h.results = {{loop, 1}, {loop, 0}};
  REQUIRE(Plan::build(h, &plan).ok());
  // sum over i < n of (i + 10 if i even else i - 10)
  auto expected = [](int32_t count) {
    int32_t s = 0;
    for (int32_t i = 0; i < count; ++i) s += i % 2 == 0 ? i + 10 : i - 10;
    return s;
  };
  n = scalar<int32_t>(7);
  REQUIRE(plan->run(&n, 1, &first).ok());
  n = scalar<int32_t>(4);
  REQUIRE(plan->run(&n, 1, &second).ok());
  CHECK(*first[0].data<int32_t>() == expected(7));
  CHECK(*first[1].data<int32_t>() == 7);
  CHECK(*second[0].data<int32_t>() == expected(4));
  CHECK(*second[1].data<int32_t>() == 4);
}

TEST_CASE("a plan with a loop never runs briefly: its iterations are unbounded", "[runtime][control_flow]") {
  Graph g;
  build_count(g, 0);
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  const Tensor n = scalar<int32_t>(3);
  CHECK_FALSE(plan->runs_briefly(&n, 1));
}
