// build_session_plan: what tf.compat.v1.Session.run computes (runtime/session_plan.h).
#include "harness.h"

#include "graphfn/runtime/session_plan.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

// x (placeholder) -> y = x * 3; c = [1, 2]; check = Assert(x > 0) (stateful, needed by nothing).
struct SessionGraph {
  Graph g;
  int x = 0, three = 0, y = 0, c = 0, zero = 0, positive = 0, check = 0;
  SessionGraph() {
    REQUIRE(g.add_placeholder(DType::kFloat32, Shape{}, "x", &x).ok());
    REQUIRE(g.add_const(scalar<float>(3), "y/y", &three).ok());
    REQUIRE(g.add_node("Mul", "y", {{x, 0}, {three, 0}}, AttrMap(), &y).ok());
    REQUIRE(g.add_const(vec<int32_t>({1, 2}), "c", &c).ok());
    REQUIRE(g.add_const(scalar<float>(0), "zero", &zero).ok());
    REQUIRE(g.add_node("Greater", "positive", {{x, 0}, {zero, 0}}, AttrMap(), &positive).ok());
    AttrMap assert_attrs;
    assert_attrs.set("T", std::vector<DType>{DType::kFloat32});
    REQUIRE(g.add_node("Assert", "check", {{positive, 0}, {x, 0}}, assert_attrs, &check).ok());
  }
};

}  // namespace

TEST_CASE("a session plan computes the fetches from the feeds", "[runtime][session]") {
  SessionGraph s;
  std::shared_ptr<const Plan> plan;
  REQUIRE(build_session_plan(s.g, {{s.x, 0}}, {{s.y, 0}, {s.c, 0}}, {}, &plan).ok());
  CHECK(plan->step_names() == std::vector<std::string>{"y"});  // the Assert is not needed: it does not run
  std::vector<Tensor> results;
  Tensor x = scalar<float>(-5);
  REQUIRE(plan->run(&x, 1, &results).ok());
  CHECK(values<float>(results[0]) == std::vector<float>{-15});
  CHECK(values<int32_t>(results[1]) == std::vector<int32_t>{1, 2});
}

TEST_CASE("a session plan runs its targets and returns fed fetches", "[runtime][session]") {
  SessionGraph s;
  std::shared_ptr<const Plan> plan;
  REQUIRE(build_session_plan(s.g, {{s.x, 0}}, {{s.x, 0}}, {s.check}, &plan).ok());
  std::vector<Tensor> results;
  Tensor good = scalar<float>(2);
  REQUIRE(plan->run(&good, 1, &results).ok());
  CHECK(values<float>(results[0]) == std::vector<float>{2});
  Tensor bad = scalar<float>(-2);
  CHECK(plan->run(&bad, 1, &results).code() == Code::kInvalidArgument);
}

TEST_CASE("a session plan feeds any tensor, cutting what computes it", "[runtime][session]") {
  SessionGraph s;
  std::shared_ptr<const Plan> plan;
  // y fed: x is not needed, so it need not be fed.
  REQUIRE(build_session_plan(s.g, {{s.y, 0}}, {{s.y, 0}}, {}, &plan).ok());
  std::vector<Tensor> results;
  Tensor y = scalar<float>(7);
  REQUIRE(plan->run(&y, 1, &results).ok());
  CHECK(values<float>(results[0]) == std::vector<float>{7});
}

TEST_CASE("a session plan names an unfed placeholder as TF does", "[runtime][session]") {
  SessionGraph s;
  std::shared_ptr<const Plan> plan;
  Status st = build_session_plan(s.g, {}, {{s.y, 0}}, {}, &plan);
  CHECK(st.code() == Code::kInvalidArgument);
  CHECK(st.message() == "You must feed a value for placeholder tensor 'x' with dtype float");
  Graph g;
  int p = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{-1, 2}, "p", &p).ok());
  st = build_session_plan(g, {}, {{p, 0}}, {}, &plan);
  CHECK(st.message() == "You must feed a value for placeholder tensor 'p' with dtype int32 and shape [?,2]");
}

TEST_CASE("a session plan rejects endpoints outside the graph and double feeds", "[runtime][session]") {
  SessionGraph s;
  std::shared_ptr<const Plan> plan;
  CHECK(build_session_plan(s.g, {}, {{99, 0}}, {}, &plan).code() == Code::kInvalidArgument);
  CHECK(build_session_plan(s.g, {}, {{s.y, 1}}, {}, &plan).code() == Code::kInvalidArgument);
  CHECK(build_session_plan(s.g, {{-1, 0}}, {}, {}, &plan).code() == Code::kInvalidArgument);
  CHECK(build_session_plan(s.g, {}, {}, {42}, &plan).code() == Code::kInvalidArgument);
  CHECK(build_session_plan(s.g, {{s.x, 0}, {s.x, 0}}, {}, {}, &plan).code() == Code::kInvalidArgument);
}
