#include "graph_builder.h"

#include "graphfn/core/resource.h"
#include "graphfn/passes/auto_control_deps.h"
#include "graphfn/passes/pass_manager.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

OptimizerOptions verified(bool folding = true, bool arithmetic = true) {
  OptimizerOptions options;
  options.constant_folding = folding;
  options.arithmetic_optimization = arithmetic;
  options.verify = true;
  return options;
}

std::vector<std::string> stateful_steps(const std::vector<std::string>& steps) {
  std::vector<std::string> out;
  for (const std::string& s : steps) {
    if (s.rfind("Assign", 0) == 0 || s.rfind("Print", 0) == 0 || s.rfind("Read", 0) == 0) out.push_back(s);
  }
  return out;
}

// v.assign(x * (2 * 3)); print; y = v.read() * 1 + (x * (2 * 3)); v.assign_add(y); return y + 0, v.read()
struct VariableProgram {
  TestGraph t;
  std::shared_ptr<VariableResource> var = std::make_shared<VariableResource>(DType::kFloat32, Shape{2});

  VariableProgram() {
    REQUIRE(var->assign(vec<float>({0, 0})).ok());
    const AttrMap f32 = attrs_of({{"dtype", DType::kFloat32}});
    int x = t.placeholder(DType::kFloat32, Shape{2});
    int handle = t.constant(make_resource_tensor(var), "v");
    int six = t.op("Mul", {t.constant(scalar<float>(2)), t.constant(scalar<float>(3))}, AttrMap(), "six");
    int x6 = t.op("Mul", {x, six}, AttrMap(), "x6");
    t.op("AssignVariableOp", {handle, x6}, f32, "Assign");
    t.op("PrintV2", {t.constant(Tensor::scalar<std::string>("hi"))},
         attrs_of({{"output_stream", std::string("file:///dev/null")}}), "Print");
    int read = t.op("ReadVariableOp", {handle}, f32, "Read");
    int scaled = t.op("Mul", {read, t.constant(scalar<float>(1))});
    int six_again = t.op("Mul", {t.constant(scalar<float>(2)), t.constant(scalar<float>(3))});
    int y = t.op("AddV2", {scaled, t.op("Mul", {x, six_again})}, AttrMap(), "y");
    t.op("AssignAddVariableOp", {handle, y}, f32, "AssignAdd");
    int out = t.op("AddV2", {y, t.constant(scalar<float>(0))});
    int read2 = t.op("ReadVariableOp", {handle}, f32, "Read_1");
    t.results({t.op("Identity", {out}), t.op("Identity", {read2})});
    add_auto_control_deps(t.g);
  }

  std::vector<Tensor> run(const Graph& g, std::vector<std::string>* steps) {
    REQUIRE(var->assign(vec<float>({0, 0})).ok());
    std::vector<Tensor> results;
    const Status s = run_graph(g, {vec<float>({1, 2})}, &results, steps);
    INFO(s.to_string());
    REQUIRE(s.ok());
    return results;
  }
};

}  // namespace

TEST_CASE("the pipeline optimizes a copy; stateful ops keep their order", "[passes][pipeline]") {
  VariableProgram p;
  const std::string traced = p.t.g.to_text();
  std::unique_ptr<Graph> optimized;
  REQUIRE(optimized_copy(p.t.g, verified(), &optimized).ok());
  CHECK(p.t.g.to_text() == traced);  // the traced graph is untouched

  std::vector<std::string> plain_steps, optimized_steps;
  const std::vector<Tensor> expected = p.run(p.t.g, &plain_steps);
  const std::vector<Tensor> got = p.run(*optimized, &optimized_steps);
  CHECK(values<float>(expected[0]) == std::vector<float>{12, 24});
  CHECK(values<float>(expected[1]) == std::vector<float>{18, 36});
  CHECK(values<float>(got[0]) == values<float>(expected[0]));
  CHECK(values<float>(got[1]) == values<float>(expected[1]));
  CHECK(stateful_steps(optimized_steps) == stateful_steps(plain_steps));
  CHECK(stateful_steps(plain_steps) ==
        std::vector<std::string>{"Assign", "Print", "Read", "AssignAdd", "Read_1"});
  // Folded 2*3 (twice, then merged), bypassed *1, +0 and the Identity outputs.
  CHECK(optimized_steps == std::vector<std::string>{"x6", "Assign", "Print", "Read", "y", "AssignAdd", "Read_1"});
  CHECK(plain_steps.size() == 12);  // 14 nodes; the plan runs the two Identity outputs as aliases
}

TEST_CASE("the pipeline's passes can be turned off", "[passes][pipeline]") {
  VariableProgram p;
  std::unique_ptr<Graph> none, folding_only, arithmetic_only;
  REQUIRE(optimized_copy(p.t.g, verified(false, false), &none).ok());
  REQUIRE(optimized_copy(p.t.g, verified(true, false), &folding_only).ok());
  REQUIRE(optimized_copy(p.t.g, verified(false, true), &arithmetic_only).ok());
  CHECK(none->to_text() == p.t.g.to_text());
  std::vector<std::string> steps;
  p.run(*folding_only, &steps);
  CHECK(steps.size() == 10);  // the two 2*3 products are constants (and the Identities aliases)
  p.run(*arithmetic_only, &steps);
  CHECK(steps.size() == 8);  // 2*3 computed once; *1, +0 and the Identities bypassed
}

TEST_CASE("optimization keeps run-time errors and never raises them early", "[passes][pipeline]") {
  TestGraph t;
  int x = t.placeholder(DType::kInt32, Shape{});
  int div = t.op("FloorDiv", {t.constant(scalar<int32_t>(1)), t.constant(scalar<int32_t>(0))}, AttrMap(), "floordiv");
  int div_again = t.op("FloorDiv", {t.constant(scalar<int32_t>(1)), t.constant(scalar<int32_t>(0))});
  int used = t.op("AddV2", {t.op("Mul", {x, t.constant(scalar<int32_t>(1))}), div_again});
  t.results({t.op("Identity", {used})});
  std::unique_ptr<Graph> optimized;
  REQUIRE(optimized_copy(t.g, verified(), &optimized).ok());
  std::vector<Tensor> results;
  const Status expected = run_graph(t.g, {scalar<int32_t>(1)}, &results);
  const Status got = run_graph(*optimized, {scalar<int32_t>(1)}, &results);
  CHECK(expected.code() == Code::kInvalidArgument);
  CHECK(got.code() == expected.code());
  // CSE merged the two divisions: the first one's name is reported (TF's grappler does the same).
  CHECK(got.message().find("Detected at node floordiv:\nInteger division by zero") != std::string::npos);
  CHECK(optimized->node(div).op->name == "FloorDiv");
}
