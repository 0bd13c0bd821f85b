#include "harness.h"

#include "graphfn/ir/graph.h"
#include "graphfn/ir/op_registry.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("graph nodes get TF-style unique names", "[ir][graph]") {
  Graph g;
  CHECK(g.unique_name("add") == "add");
  int id = 0;
  REQUIRE(g.add_const(scalar<int32_t>(1), "Const", &id).ok());
  REQUIRE(g.add_const(scalar<int32_t>(2), "Const", &id).ok());
  REQUIRE(g.add_const(scalar<int32_t>(3), "Const", &id).ok());
  CHECK(g.node(0).name == "Const");
  CHECK(g.node(1).name == "Const_1");
  CHECK(g.node(2).name == "Const_2");
  CHECK(g.find_node("Const_1") == 1);
}

TEST_CASE("add_node infers dtypes and partial shapes", "[ir][graph]") {
  Graph g;
  int x = 0, y = 0, z = 0;
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{-1, 3}, "x", &x).ok());
  REQUIRE(g.add_const(vec<float>({1, 2, 3}), "y", &y).ok());
  REQUIRE(g.add_node("AddV2", "add", {{x, 0}, {y, 0}}, AttrMap(), &z).ok());
  CHECK(g.dtype({z, 0}) == DType::kFloat32);
  CHECK(g.shape({z, 0}).to_string() == "[?,3]");
  CHECK(std::get<DType>(*g.node(z).attrs.find("T")) == DType::kFloat32);
  CHECK(g.to_text().find("add = AddV2[T=float32](x, y) -> float32[?,3]") != std::string::npos);
}

TEST_CASE("graph building rejects what eager rejects", "[ir][graph]") {
  Graph g;
  int a = 0, b = 0, c = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{3}, "a", &a).ok());
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{3}, "b", &b).ok());
  Status s = g.add_node("AddV2", "add", {{a, 0}, {b, 0}}, AttrMap(), &c);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message().find("expected to be a int32 tensor but is a float tensor") != std::string::npos);
  int d = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{4}, "d", &d).ok());
  // TF's graph-building words; with `failure`, the message describes the node as TF's does.
  CHECK(g.add_node("AddV2", "add", {{a, 0}, {d, 0}}, AttrMap(), &c).message() ==
        "Dimensions must be equal, but are 3 and 4");
  Graph::Failure failure = Graph::Failure::kOther;
  CHECK(g.add_node(*OpRegistry::global().find("AddV2"), "add", {{a, 0}, {d, 0}}, AttrMap(), &c, true, &failure)
            .message() ==
        "Dimensions must be equal, but are 3 and 4 for '{{node add}} = AddV2[T=DT_INT32](a, d)' with input shapes: "
        "[3], [4].");
  CHECK(failure == Graph::Failure::kShapeFunction);
  CHECK(g.add_node(*OpRegistry::global().find("AddV2"), "add", {{a, 0}, {b, 0}}, AttrMap(), &c, true, &failure)
            .message() == "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'.");
  CHECK(failure == Graph::Failure::kInputType);
  CHECK_FALSE(g.add_node("AddV2", "add", {{a, 0}, {99, 0}}, AttrMap(), &c).ok());
  CHECK(g.num_nodes() == 3);  // failed nodes are not added
}

TEST_CASE("unique names are case-insensitive like TF's", "[ir][graph]") {
  // TF traced `x + y` then `tf.add(x, y)` as nodes "add" and "Add_1".
  Graph g;
  CHECK(g.unique_name("add") == "add");
  CHECK(g.unique_name("Add") == "Add_1");
  CHECK(g.unique_name("add") == "add_2");
  CHECK(g.unique_name("add_1") == "add_1_1");  // "add_1" was taken by "Add_1"
  CHECK(g.unique_name("sub") == "sub");
}

TEST_CASE("clone copies nodes, names, arguments and results", "[ir][graph]") {
  Graph g;
  int x = 0, y = 0, z = 0;
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{3}, "x", &x).ok());
  REQUIRE(g.add_const(vec<float>({1, 2, 3}), "y", &y).ok());
  REQUIRE(g.add_node("AddV2", "add", {{x, 0}, {y, 0}}, AttrMap(), &z).ok());
  g.add_control_input(z, y);
  g.arguments = {x};
  g.results = {{z, 0}};
  std::unique_ptr<Graph> copy = g.clone();
  CHECK(copy->to_text() == g.to_text());
  CHECK(copy->arguments == g.arguments);
  CHECK(copy->results == g.results);
  CHECK(copy->find_node("add") == z);
  // Rewriting the copy leaves the original alone, and new names stay unique in the copy.
  copy->replace_with_const(z, vec<float>({0, 0, 0}));
  CHECK(copy->node(z).const_value() != nullptr);
  CHECK(copy->node(z).control_inputs == std::vector<int>{y});
  CHECK(g.node(z).op->name == "AddV2");
  CHECK(copy->unique_name("add") == "add_1");
  CHECK(g.unique_name("add") == "add_1");  // names are copied on write too
}

TEST_CASE("clones share nodes until either side changes one", "[ir][graph]") {
  Graph g;
  int x = 0, y = 0, z = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{}, "x", &x).ok());
  REQUIRE(g.add_node("Neg", "neg", {{x, 0}}, AttrMap(), &y).ok());
  REQUIRE(g.add_node("Abs", "abs", {{y, 0}}, AttrMap(), &z).ok());
  std::unique_ptr<Graph> copy = g.clone();
  CHECK(&copy->node(y) == &g.node(y));
  copy->mutable_node(z).inputs[0] = Endpoint{x, 0};
  CHECK(&copy->node(z) != &g.node(z));
  CHECK(g.node(z).inputs[0].node == y);
  g.add_control_input(y, x);  // the original side copies too
  CHECK(copy->node(y).control_inputs.empty());
  int w = 0;
  REQUIRE(copy->add_node("Neg", "neg", {{x, 0}}, AttrMap(), &w).ok());
  CHECK(copy->node(w).name == "neg_1");
  CHECK(g.num_nodes() == 3);
  CHECK(g.find_node("neg_1") == -1);
}
