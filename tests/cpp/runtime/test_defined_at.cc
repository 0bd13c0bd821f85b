// Creation stacks in graph execution errors: TF's "Detected at node X defined at (most recent
// call last):" lists the frames that made the failing node, also inside a branch.
#include "harness.h"
#include "passes/graph_builder.h"

#include "graphfn/runtime/plan.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

const SourceFrame kModule{"/tmp/s.py", 50, "<module>"};
const SourceFrame kFn{"/tmp/s.py", 6, "g"};

std::shared_ptr<const SourceStack> stack_of(std::vector<const SourceFrame*> frames) {
  auto s = std::make_shared<SourceStack>();
  s->frames = std::move(frames);
  return s;
}

Status run_plan(const Graph& g, std::vector<Tensor> feeds, const std::string& name) {
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan, name).ok());
  std::vector<Tensor> results;
  return plan->run(feeds.data(), static_cast<int>(feeds.size()), &results);
}

}  // namespace

TEST_CASE("graph execution errors list where the failing node was defined", "[runtime][plan]") {
  Graph g;
  int x = 0, zero = 0, div = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{}, "x", &x).ok());
  REQUIRE(g.add_const(scalar<int32_t>(0), "zero", &zero).ok());
  REQUIRE(g.add_node("FloorDiv", "floordiv", {{x, 0}, {zero, 0}}, AttrMap(), &div).ok());
  g.mutable_node(div).defined_at = stack_of({&kModule, &kFn});
  g.arguments = {x};
  g.results = {{div, 0}};
  const Status s = run_plan(g, {scalar<int32_t>(7)}, "__inference_g_7");
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() ==
        "Graph execution error:\n\nDetected at node floordiv defined at (most recent call last):\n"
        "  File \"/tmp/s.py\", line 50, in <module>\n\n  File \"/tmp/s.py\", line 6, in g\n\n"
        "Integer division by zero\n\t [[{{node floordiv}}]] [Op:__inference_g_7]");
}

TEST_CASE("a node inside a branch reports its own creation stack", "[runtime][plan]") {
  Graph g;
  int p = 0, x = 0;
  REQUIRE(g.add_placeholder(DType::kBool, Shape(), "p", &p).ok());
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{3}, "x", &x).ok());
  g.arguments = {p, x};
  auto branch = [](bool fails) {
    auto b = std::make_shared<Graph>();
    int arg = 0, shape = 0, out = 0;
    REQUIRE(b->add_placeholder(DType::kInt32, Shape::unknown_rank(), "cond/Placeholder", &arg).ok());
    b->arguments = {arg};
    REQUIRE(b->add_const(vec<int32_t>({fails ? 5 : 3}), "cond/Reshape/shape", &shape).ok());
    REQUIRE(b->add_node("Reshape", "cond/Reshape", {{arg, 0}, {shape, 0}}, AttrMap(), &out).ok());
    if (fails) b->mutable_node(out).defined_at = stack_of({&kModule, &kFn});
    b->results = {{out, 0}};
    return b;
  };
  int c = 0;
  REQUIRE(g.add_node("StatelessIf", "cond", {{p, 0}, {x, 0}},
                     attrs_of({{"Tin", std::vector<DType>{DType::kInt32}},
                               {"Tout", std::vector<DType>{DType::kInt32}},
                               {"then_branch", FuncAttr{"cond_true_1", branch(false)}},
                               {"else_branch", FuncAttr{"cond_false_2", branch(true)}}}),
                     &c)
              .ok());
  g.results = {{c, 0}};
  const Status s = run_plan(g, {scalar<bool>(false), vec<int32_t>({1, 2, 3})}, "f");
  CHECK(s.message() ==
        "Graph execution error:\n\nDetected at node cond/Reshape defined at (most recent call last):\n"
        "  File \"/tmp/s.py\", line 50, in <module>\n\n  File \"/tmp/s.py\", line 6, in g\n\n"
        "Input to reshape is a tensor with 3 values, but the requested shape has 5\n\t [[{{node cond/Reshape}}]] "
        "[Op:f]");
  const Status t = run_plan(g, {scalar<bool>(true), vec<int32_t>({1, 2, 3})}, "f");
  CHECK(t.ok());
}
