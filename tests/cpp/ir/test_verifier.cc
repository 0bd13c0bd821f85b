#include "passes/graph_builder.h"

#include "graphfn/ir/verifier.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

// x: int32[2], f: float32[], add = x + c, neg = -add
struct Small {
  TestGraph t;
  int x, f, c, add, neg;
  Small() {
    x = t.placeholder(DType::kInt32, Shape{2}, "x");
    f = t.placeholder(DType::kFloat32, Shape{}, "f");
    c = t.constant(scalar<int32_t>(1), "c");
    add = t.op("AddV2", {x, c}, AttrMap(), "add");
    neg = t.op("Neg", {add}, AttrMap(), "neg");
    t.results({neg});
  }
  std::string error() {
    const Status s = verify_graph(t.g);
    REQUIRE_FALSE(s.ok());
    CHECK(s.code() == Code::kInternal);
    return s.message();
  }
};

}  // namespace

TEST_CASE("the verifier accepts graphs as built", "[ir][verifier]") {
  Small g;
  g.t.g.add_control_input(g.neg, g.c);
  CHECK(verify_graph(g.t.g).ok());
}

TEST_CASE("the verifier rejects inputs that are not earlier outputs", "[ir][verifier]") {
  Small g;
  g.t.g.mutable_node(g.add).inputs[1] = Endpoint{g.neg, 0};
  CHECK(g.error() == "invalid graph: node 'add' (AddV2) input 1 is not an earlier output");
  Small h;
  h.t.g.mutable_node(h.add).inputs[1] = Endpoint{h.c, 1};
  CHECK(h.error() == "invalid graph: node 'add' (AddV2) input 1 is not an earlier output");
  Small k;
  k.t.g.mutable_node(k.add).control_inputs.push_back(k.neg);
  CHECK(k.error() == "invalid graph: node 'add' (AddV2) has a control input that is not an earlier node");
}

TEST_CASE("the verifier rejects input dtypes the node's type attrs do not allow", "[ir][verifier]") {
  Small g;
  g.t.g.mutable_node(g.add).inputs[1] = Endpoint{g.f, 0};
  CHECK(g.error().find("invalid graph: node 'add' (AddV2) has inputs its op rejects: cannot compute AddV2 as "
                       "input #1(zero-based) was expected to be a int32 tensor but is a float tensor") == 0);
  Small h;
  h.t.g.mutable_node(h.neg).type_attrs[0] = DType::kFloat32;
  CHECK(h.error() == "invalid graph: node 'neg' (Neg) has type attr T unlike its inputs");
}

TEST_CASE("the verifier checks Consts, arguments and results", "[ir][verifier]") {
  Small g;
  g.t.g.mutable_node(g.c).output_shapes[0] = Shape{2};
  CHECK(g.error() == "invalid graph: node 'c' (Const) is a Const whose output differs from its value");
  Small h;
  h.t.g.results.push_back(Endpoint{h.neg, 1});
  CHECK(h.error() == "invalid graph: a result refers to no output");
  Small k;
  k.t.g.arguments.push_back(99);
  CHECK(k.error() == "invalid graph: argument 99 is not a single-output node");
}
