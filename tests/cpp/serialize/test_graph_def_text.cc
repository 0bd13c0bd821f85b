#include "harness.h"

#include "graphfn/serialize/graph_def_text.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("graph_def_text prints nodes as TensorFlow's GraphDef text", "[serialize]") {
  // The first three nodes of the seed's `tf_simple_relu` graph, as TF 2.8 printed them.
  Graph g;
  int x = 0, y = 0, greater = 0;
  REQUIRE(g.add_placeholder(DType::kInt32, Shape{}, "x", &x).ok());
  g.mutable_node(x).attrs.set("_user_specified_name", std::string("x"));
  REQUIRE(g.add_const(scalar<int32_t>(0), "Greater/y", &y).ok());
  REQUIRE(g.add_node("Greater", "Greater", {{x, 0}, {y, 0}}, AttrMap(), &greater).ok());
  const std::string expected =
      "node {\n  name: \"x\"\n  op: \"Placeholder\"\n"
      "  attr {\n    key: \"_user_specified_name\"\n    value {\n      s: \"x\"\n    }\n  }\n"
      "  attr {\n    key: \"dtype\"\n    value {\n      type: DT_INT32\n    }\n  }\n"
      "  attr {\n    key: \"shape\"\n    value {\n      shape {\n      }\n    }\n  }\n}\n"
      "node {\n  name: \"Greater/y\"\n  op: \"Const\"\n"
      "  attr {\n    key: \"dtype\"\n    value {\n      type: DT_INT32\n    }\n  }\n"
      "  attr {\n    key: \"value\"\n    value {\n      tensor {\n        dtype: DT_INT32\n        tensor_shape {\n"
      "        }\n        int_val: 0\n      }\n    }\n  }\n}\n"
      "node {\n  name: \"Greater\"\n  op: \"Greater\"\n  input: \"x\"\n  input: \"Greater/y\"\n"
      "  attr {\n    key: \"T\"\n    value {\n      type: DT_INT32\n    }\n  }\n}\n"
      "versions {\n  producer: 1882\n}\n";
  CHECK(graph_def_text(g) == expected);
}

TEST_CASE("graph_def_text writes shapes, control inputs and multi-element constants", "[serialize]") {
  Graph g;
  int x = 0, c = 0, add = 0;
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{-1, 2}, "x", &x).ok());
  REQUIRE(g.add_const(vec<int32_t>({1, 2}), "c", &c).ok());
  REQUIRE(g.add_node("Identity", "Identity", {{x, 0}}, AttrMap(), &add).ok());
  g.add_control_input(add, c);
  const std::string text = graph_def_text(g);
  CHECK(text.find("shape {\n        dim {\n          size: -1\n        }\n        dim {\n          size: 2\n") !=
        std::string::npos);
  CHECK(text.find("tensor_content: \"\\001\\000\\000\\000\\002\\000\\000\\000\"") != std::string::npos);
  CHECK(text.find("input: \"x\"\n  input: \"^c\"") != std::string::npos);
}
