#include "harness.h"

#include "graphfn/runtime/plan.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

// f(x) = x * x + 1 over a placeholder of unknown length.
void build_square_plus_one(Graph& g) {
  int x = 0, one = 0, sq = 0, out = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{-1}, "x", &x).ok());
  REQUIRE(g.add_const(scalar<int32_t>(1), "add/y", &one).ok());
  REQUIRE(g.add_node("Mul", "mul", {{x, 0}, {x, 0}}, AttrMap(), &sq).ok());
  REQUIRE(g.add_node("AddV2", "add", {{sq, 0}, {one, 0}}, AttrMap(), &out).ok());
  g.arguments = {x};
  g.results = {{out, 0}};
}

}  // namespace

TEST_CASE("a plan runs the graph on fed inputs", "[runtime][plan]") {
  Graph g;
  build_square_plus_one(g);
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  CHECK(plan->step_names() == std::vector<std::string>{"mul", "add"});
  std::vector<Tensor> results;
  Tensor x = vec<int32_t>({1, 2, 3});
  REQUIRE(plan->run(&x, 1, &results).ok());
  CHECK(values<int32_t>(results[0]) == std::vector<int32_t>{2, 5, 10});
  Tensor longer = vec<int32_t>({4, 5, 6, 7});  // unknown dim accepts any length
  REQUIRE(plan->run(&longer, 1, &results).ok());
  CHECK(values<int32_t>(results[0]) == std::vector<int32_t>{17, 26, 37, 50});
}

TEST_CASE("a plan checks fed dtypes, with TF's message", "[runtime][plan]") {
  Graph g;
  build_square_plus_one(g);
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan, "__inference_f_7").ok());
  std::vector<Tensor> results;
  Tensor wrong_dtype = vec<float>({1});
  Status s = plan->run(&wrong_dtype, 1, &results);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() == "cannot compute __inference_f_7 as input #0(zero-based) was expected to be a int32 tensor "
                       "but is a float tensor [Op:__inference_f_7]");
  CHECK(plan->run(nullptr, 0, &results).code() == Code::kInvalidArgument);
  // Shapes are not checked against the traced ones: the kernels validate what they get.
  Tensor scalar_input = scalar<int32_t>(3);
  REQUIRE(plan->run(&scalar_input, 1, &results).ok());
  CHECK(values<int32_t>(results[0]) == std::vector<int32_t>{10});
}

TEST_CASE("execution is non-strict: unused nodes never run", "[runtime][plan]") {
  Graph g;
  int x = 0, zero = 0, unused = 0, out = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{}, "x", &x).ok());
  REQUIRE(g.add_const(scalar<int32_t>(0), "zero", &zero).ok());
  REQUIRE(g.add_node("FloorDiv", "unused", {{x, 0}, {zero, 0}}, AttrMap(), &unused).ok());  // would fail
  REQUIRE(g.add_node("Neg", "neg", {{x, 0}}, AttrMap(), &out).ok());
  g.arguments = {x};
  g.results = {{out, 0}};
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  CHECK(plan->step_names() == std::vector<std::string>{"neg"});
  std::vector<Tensor> results;
  Tensor x_value = scalar<int32_t>(7);
  REQUIRE(plan->run(&x_value, 1, &results).ok());
  CHECK(values<int32_t>(results[0]) == std::vector<int32_t>{-7});
}

TEST_CASE("Identity nodes run as aliases: results may be feeds, constants or shared", "[runtime][plan]") {
  Graph g;
  int x = 0, c = 0, id_x = 0, id_c = 0, neg = 0, id_neg = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{}, "x", &x).ok());
  REQUIRE(g.add_const(scalar<int32_t>(5), "c", &c).ok());
  REQUIRE(g.add_node("Identity", "id_x", {{x, 0}}, AttrMap(), &id_x).ok());
  REQUIRE(g.add_node("Identity", "id_c", {{c, 0}}, AttrMap(), &id_c).ok());
  REQUIRE(g.add_node("Neg", "neg", {{id_x, 0}}, AttrMap(), &neg).ok());
  REQUIRE(g.add_node("Identity", "id_neg", {{neg, 0}}, AttrMap(), &id_neg).ok());
  g.arguments = {x};
  g.results = {{id_x, 0}, {id_c, 0}, {id_neg, 0}, {neg, 0}};
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  CHECK(plan->step_names() == std::vector<std::string>{"neg"});
  for (int32_t v : {7, -2}) {  // twice: the cached frame must still hold the constant
    std::vector<Tensor> results;
    Tensor x_value = scalar<int32_t>(v);
    REQUIRE(plan->run(&x_value, 1, &results).ok());
    CHECK(values<int32_t>(results[0]) == std::vector<int32_t>{v});
    CHECK(values<int32_t>(results[1]) == std::vector<int32_t>{5});
    CHECK(values<int32_t>(results[2]) == std::vector<int32_t>{-v});
    CHECK(values<int32_t>(results[3]) == std::vector<int32_t>{-v});
  }
}

TEST_CASE("run-time errors name the failing node", "[runtime][plan]") {
  Graph g;
  int x = 0, zero = 0, div = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{}, "x", &x).ok());
  REQUIRE(g.add_const(scalar<int32_t>(0), "zero", &zero).ok());
  REQUIRE(g.add_node("FloorDiv", "floordiv", {{x, 0}, {zero, 0}}, AttrMap(), &div).ok());
  g.arguments = {x};
  g.results = {{div, 0}};
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  std::vector<Tensor> results;
  Tensor x_value = scalar<int32_t>(7);
  Status s = plan->run(&x_value, 1, &results);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() == "Graph execution error:\n\nDetected at node floordiv:\nInteger division by zero\n\t "
                       "[[{{node floordiv}}]] [Op:graph]");
}

TEST_CASE("intermediates are released early, results are kept", "[runtime][plan]") {
  // y = x * x is both a result and read by z = y + y; x is read twice by one step.
  Graph g;
  int x = 0, y = 0, z = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{2}, "x", &x).ok());
  REQUIRE(g.add_node("Mul", "mul", {{x, 0}, {x, 0}}, AttrMap(), &y).ok());
  REQUIRE(g.add_node("AddV2", "add", {{y, 0}, {y, 0}}, AttrMap(), &z).ok());
  g.arguments = {x};
  g.results = {{z, 0}, {y, 0}};
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  Tensor feed = vec<int32_t>({2, 3});
  std::vector<Tensor> results;
  for (int run = 0; run < 2; ++run) {
    REQUIRE(plan->run(&feed, 1, &results).ok());
    CHECK(values<int32_t>(results[0]) == std::vector<int32_t>{8, 18});
    CHECK(values<int32_t>(results[1]) == std::vector<int32_t>{4, 9});
  }
  CHECK(values<int32_t>(feed) == std::vector<int32_t>{2, 3});
}

TEST_CASE("a reused frame keeps constants and holds none of the caller's tensors", "[runtime][plan]") {
  Graph g;
  int x = 0, k = 0, y = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{2}, "x", &x).ok());
  REQUIRE(g.add_const(vec<int32_t>({7, 8}), "k", &k).ok());
  REQUIRE(g.add_node("AddV2", "add", {{x, 0}, {k, 0}}, AttrMap(), &y).ok());
  g.arguments = {x};
  g.results = {{y, 0}, {k, 0}};  // a constant as a result
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  for (int run = 0; run < 3; ++run) {
    Tensor feed = vec<int32_t>({run, 1});
    std::vector<Tensor> results;
    REQUIRE(plan->run(&feed, 1, &results).ok());
    CHECK(values<int32_t>(results[0]) == std::vector<int32_t>{7 + run, 9});
    CHECK(values<int32_t>(results[1]) == std::vector<int32_t>{7, 8});
    CHECK(feed.buffer().use_count() == 1);           // the frame let go of the input
    CHECK(results[0].buffer().use_count() == 1);     // and of the result
  }
}

TEST_CASE("a plan runs briefly only with static shapes, few elements and its traced feed shapes", "[runtime][plan]") {
  auto build = [](const Shape& shape, std::shared_ptr<const Plan>* plan) {
    Graph g;
    int x = 0, out = 0;
    REQUIRE(g.add_placeholder(DType::kFloat32, shape, "x", &x).ok());
    REQUIRE(g.add_node("Mul", "mul", {{x, 0}, {x, 0}}, AttrMap(), &out).ok());
    g.arguments = {x};
    g.results = {{out, 0}};
    REQUIRE(Plan::build(g, plan).ok());
  };
  std::shared_ptr<const Plan> small, unknown, large;
  build(Shape{3}, &small);
  build(Shape{-1}, &unknown);
  build(Shape{100000}, &large);
  const Tensor three(DType::kFloat32, Shape{3});
  const Tensor four(DType::kFloat32, Shape{4});
  CHECK(small->runs_briefly(&three, 1));
  CHECK_FALSE(small->runs_briefly(&four, 1));     // not the traced shape: steps are not static
  CHECK_FALSE(small->runs_briefly(nullptr, 0));   // wrong arity
  CHECK_FALSE(unknown->runs_briefly(&three, 1));  // a dynamic shape bounds nothing
  const Tensor big(DType::kFloat32, Shape{100000});
  CHECK_FALSE(large->runs_briefly(&big, 1));
}
