// Inter-op parallelism (runtime/plan_parallel.cc): which plans run steps at once, and that they
// give what the steps give run one by one: values bit for bit, the serial run's error, side
// effects only where the serial run has them, from several threads at once.
#include <random>
#include <thread>

#include "harness.h"

#include "graphfn/core/inter_op_pool.h"
#include "graphfn/core/resource.h"
#include "graphfn/runtime/plan.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

Tensor random_matrix(int64_t rows, int64_t cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 0.5f);
  Tensor t(DType::kFloat32, Shape{rows, cols});
  for (int64_t i = 0; i < t.num_elements(); ++i) t.data<float>()[i] = normal(rng);
  return t;
}

AttrMap type_attr(const char* name, DType dt) {
  AttrMap a;
  a.set(name, dt);
  return a;
}

// Four towers over one shared intermediate, odd sizes: tower t is relu(relu(x) @ w1[t]) @ w2[t],
// the towers concatenated along columns.
struct Towers {
  static constexpr int kTowers = 4;
  static constexpr int64_t kBatch = 67, kIn = 257, kOut = 129;
  Graph graph;
  std::vector<Tensor> w1, w2;

  Towers() {
    int x = 0, shared = 0, axis = 0;
    REQUIRE(graph.add_placeholder(DType::kFloat32, Shape{kBatch, kIn}, "x", &x).ok());
    REQUIRE(graph.add_node("Relu", "shared", {{x, 0}}, AttrMap(), &shared).ok());
    std::vector<Endpoint> outs;
    for (int t = 0; t < kTowers; ++t) {
      const int64_t hidden = 263 + 2 * t;
      w1.push_back(random_matrix(kIn, hidden, 10 + t));
      w2.push_back(random_matrix(hidden, kOut, 20 + t));
      const std::string p = "tower" + std::to_string(t) + "/";
      int c1 = 0, c2 = 0, h = 0, r = 0, o = 0;
      REQUIRE(graph.add_const(w1[t], p + "w1", &c1).ok());
      REQUIRE(graph.add_const(w2[t], p + "w2", &c2).ok());
      REQUIRE(graph.add_node("MatMul", p + "matmul", {{shared, 0}, {c1, 0}}, AttrMap(), &h).ok());
      REQUIRE(graph.add_node("Relu", p + "relu", {{h, 0}}, AttrMap(), &r).ok());
      REQUIRE(graph.add_node("MatMul", p + "matmul_1", {{r, 0}, {c2, 0}}, AttrMap(), &o).ok());
      outs.push_back({o, 0});
    }
    REQUIRE(graph.add_const(scalar<int32_t>(1), "axis", &axis).ok());
    outs.push_back({axis, 0});
    AttrMap concat_attrs;
    concat_attrs.set("N", int64_t{kTowers});
    int concat = 0;
    REQUIRE(graph.add_node("ConcatV2", "concat", outs, concat_attrs, &concat).ok());
    graph.arguments = {x};
    graph.results = {{concat, 0}};
  }

  // The same ops one by one, eagerly.
  Tensor expected(const Tensor& x) const {
    std::vector<Tensor> outs;
    const Tensor shared = run1("Relu", {x});
    for (int t = 0; t < kTowers; ++t) {
      const Tensor r = run1("Relu", {run1("MatMul", {shared, w1[t]})});
      outs.push_back(run1("MatMul", {r, w2[t]}));
    }
    outs.push_back(scalar<int32_t>(1));
    AttrMap concat_attrs;
    concat_attrs.set("N", int64_t{kTowers});
    return run1("ConcatV2", outs, concat_attrs);
  }
};

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::equal(a.data<float>(), a.data<float>() + a.num_elements(), b.data<float>());
}

}  // namespace

TEST_CASE("independent towers make a parallel plan with the values of the ops run one by one", "[runtime][plan][inter_op]") {
  Towers towers;
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(towers.graph, &plan).ok());
  CHECK(plan->runs_in_parallel());
  const Tensor x = random_matrix(Towers::kBatch, Towers::kIn, 1);
  const Tensor expected = towers.expected(x);
  for (int run = 0; run < 20; ++run) {
    std::vector<Tensor> results;
    REQUIRE(plan->run(&x, 1, &results).ok());
    REQUIRE(same_bits(results[0], expected));
    CHECK(results[0].buffer().use_count() == 1);  // the frame keeps no result
  }
}

TEST_CASE("several threads run one parallel plan at once", "[runtime][plan][inter_op]") {
  Towers towers;
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(towers.graph, &plan).ok());
  REQUIRE(plan->runs_in_parallel());
  std::vector<Tensor> inputs, expected;
  for (int t = 0; t < 4; ++t) {
    inputs.push_back(random_matrix(Towers::kBatch, Towers::kIn, 100 + t));
    expected.push_back(towers.expected(inputs[t]));
  }
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < 10; ++run) {
        std::vector<Tensor> results;
        if (!plan->run(&inputs[t], 1, &results).ok() || !same_bits(results[0], expected[t])) ++mismatches[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(mismatches == std::vector<int>(4, 0));
}

TEST_CASE("small graphs and chains of dependent steps keep the serial loop", "[runtime][plan][inter_op]") {
  Graph small;
  int x = 0, one = 0, sq = 0, out = 0;
  REQUIRE(small.add_placeholder(DType::kInt32, Shape{-1}, "x", &x).ok());
  REQUIRE(small.add_const(scalar<int32_t>(1), "one", &one).ok());
  REQUIRE(small.add_node("Mul", "mul", {{x, 0}, {x, 0}}, AttrMap(), &sq).ok());
  REQUIRE(small.add_node("AddV2", "add", {{x, 0}, {one, 0}}, AttrMap(), &out).ok());
  small.arguments = {x};
  small.results = {{sq, 0}, {out, 0}};
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(small, &plan).ok());
  CHECK_FALSE(plan->runs_in_parallel());

  // Large products, each needing the one before: nothing to overlap.
  Graph chain;
  int y = 0, w = 0;
  REQUIRE(chain.add_placeholder(DType::kFloat32, Shape{512, 512}, "y", &y).ok());
  REQUIRE(chain.add_const(random_matrix(512, 512, 3), "w", &w).ok());
  int last = y;
  for (int i = 0; i < 4; ++i) {
    int next = 0;
    REQUIRE(chain.add_node("MatMul", "matmul_" + std::to_string(i), {{last, 0}, {w, 0}}, AttrMap(), &next).ok());
    last = next;
  }
  chain.arguments = {y};
  chain.results = {{last, 0}};
  REQUIRE(Plan::build(chain, &plan).ok());
  CHECK_FALSE(plan->runs_in_parallel());
}

TEST_CASE("a parallel run reports the serial run's error and skips the side effects after it", "[runtime][plan][inter_op]") {
  // Step 0: a long product; step 1 (reads it) fails on a bad feed; step 2 adds to a variable;
  // step 3 fails at once on another bad feed; step 4 is independent work. The serial loop stops
  // at step 1: its error, and no assignment, however the steps overlap in time.
  auto var = std::make_shared<VariableResource>(DType::kFloat32, Shape{});
  REQUIRE(var->assign(scalar<float>(1.0f)).ok());
  Graph g;
  int x1 = 0, x2 = 0, w = 0, a = 0, b = 0, handle = 0, one = 0, assign = 0, c = 0, d = 0;
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{-1, -1}, "x1", &x1).ok());
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{-1, -1}, "x2", &x2).ok());
  const Tensor w_value = random_matrix(512, 512, 5);
  REQUIRE(g.add_const(w_value, "w", &w).ok());
  REQUIRE(g.add_node("MatMul", "long", {{w, 0}, {w, 0}}, AttrMap(), &a).ok());
  REQUIRE(g.add_node("MatMul", "first_failure", {{x1, 0}, {a, 0}}, AttrMap(), &b).ok());
  REQUIRE(g.add_const(make_resource_tensor(var), "v", &handle).ok());
  REQUIRE(g.add_const(scalar<float>(1.0f), "one", &one).ok());
  REQUIRE(g.add_node("AssignAddVariableOp", "assign", {{handle, 0}, {one, 0}}, type_attr("dtype", DType::kFloat32),
                     &assign)
              .ok());
  REQUIRE(g.add_node("MatMul", "second_failure", {{x2, 0}, {w, 0}}, AttrMap(), &c).ok());
  REQUIRE(g.add_node("MatMul", "independent", {{w, 0}, {w, 0}}, AttrMap(), &d).ok());
  g.arguments = {x1, x2};
  g.results = {{b, 0}, {c, 0}, {d, 0}};
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  REQUIRE(plan->runs_in_parallel());
  CHECK(plan->step_names() ==
        std::vector<std::string>{"long", "first_failure", "assign", "second_failure", "independent"});
  const Tensor bad[2] = {random_matrix(3, 5, 6), random_matrix(3, 7, 7)};
  for (int run = 0; run < 5; ++run) {
    std::vector<Tensor> results;
    Status s = plan->run(bad, 2, &results);
    CHECK(s.code() == Code::kInvalidArgument);
    CHECK(contains(s, "Detected at node first_failure"));
    CHECK(contains(s, "In[0]: [3,5], In[1]: [512,512]"));
    INFO(message(s));
    Tensor value;
    REQUIRE(var->read(&value).ok());
    CHECK(values<float>(value)[0] == 1.0f);
  }
  const Tensor good[2] = {random_matrix(3, 512, 6), random_matrix(3, 512, 7)};
  std::vector<Tensor> results;
  REQUIRE(plan->run(good, 2, &results).ok());
  Tensor value;
  REQUIRE(var->read(&value).ok());
  CHECK(values<float>(value)[0] == 2.0f);
  const Tensor square = run1("MatMul", {w_value, w_value});
  CHECK(same_bits(results[0], run1("MatMul", {good[0], square})));
  CHECK(same_bits(results[1], run1("MatMul", {good[1], w_value})));
  CHECK(same_bits(results[2], square));
}

TEST_CASE("the inter-op pool has at least the calling thread", "[runtime][inter_op]") {
  CHECK(inter_op_parallelism() >= 1);
  int ran = 0;
  if (inter_op_parallelism() == 1) {
    schedule_inter_op([&] { ran = 1; });  // no workers: runs here
    CHECK(ran == 1);
  }
}
