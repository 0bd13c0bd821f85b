// Adding op nodes while tracing (tracing/op_builder.h): names inside the graph's name scope,
// constant operands as Const nodes inside the op's scope, captures of tensors of enclosing graphs
// and of variable handles, failure kinds; and what tracing keeps per graph (graph_trace.h).
#include "harness.h"

#include "graphfn/core/resource.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/tracing/capture.h"
#include "graphfn/tracing/graph_trace.h"
#include "graphfn/tracing/op_builder.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

const OpDef& op_def(const char* name) { return *OpRegistry::global().find(name); }

int placeholder(Graph& g, DType dt, const Shape& shape, const std::string& name) {
  int id = 0;
  REQUIRE(g.add_placeholder(dt, shape, name, &id).ok());
  return id;
}

// Adds op `op` named `name` as the bindings do: each operand in order, then the node.
Status build_op(Graph& g, const char* op, const std::string& name, const std::vector<Operand>& operands,
                const AttrMap& attrs, const std::shared_ptr<const SourceStack>& defined_at, int* id,
                Graph::Failure* failure) {
  std::vector<Endpoint> inputs;
  for (const Operand& operand : operands) {
    Endpoint e;
    GRAPHFN_RETURN_IF_ERROR(add_operand(g, op_def(op), name, operand, defined_at, &e));
    inputs.push_back(e);
  }
  return add_op_node(g, op_def(op), name, inputs, attrs, defined_at, id, failure);
}

// build_op with a name reserved from `hint`, requiring success.
int build(Graph& g, const char* op, const std::string& hint, const std::vector<Operand>& operands,
          const AttrMap& attrs = AttrMap()) {
  const std::string name = reserve_op_name(g, hint);
  int id = -1;
  Graph::Failure failure;
  const Status s = build_op(g, op, name, operands, attrs, nullptr, &id, &failure);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return id;
}

std::string input_name(const Graph& g, int node, int i) { return g.node(g.node(node).inputs.at(i).node).name; }

}  // namespace

TEST_CASE("op names: inside the graph's name scope, made unique; a scope's own name as given",
          "[tracing][op_builder]") {
  Graph g;
  CHECK(reserve_op_name(g, "add") == "add");
  CHECK(reserve_op_name(g, "add") == "add_1");
  trace_of(g).name_scope = "outer/inner/";
  CHECK(reserve_op_name(g, "add") == "outer/inner/add");
  CHECK(reserve_op_name(g, "Add") == "outer/inner/Add_1");  // names compare case-insensitively
  CHECK(reserve_op_name(g, "truediv/") == "truediv");        // TF: an op named after its own scope
  trace_of(g).name_scope = "";
  CHECK(reserve_op_name(g, "add") == "add_2");
}

TEST_CASE("constant operands become Const nodes inside the op's scope", "[tracing][op_builder]") {
  Graph g;
  const int x = placeholder(g, DType::kInt32, Shape{}, "x");
  trace_of(g).name_scope = "scope/";
  const int greater = build(g, "Greater", "Greater",
                            {Operand::symbolic(&g, {x, 0}, 0), Operand::constant_value(scalar<int32_t>(0), 1)});
  CHECK(g.node(greater).name == "scope/Greater");
  CHECK(input_name(g, greater, 0) == "x");
  CHECK(input_name(g, greater, 1) == "scope/Greater/y");
  CHECK(g.node(g.node(greater).inputs[1].node).const_value() != nullptr);
  // In a list input, the constant's position in the list follows the input's name (TF: "AddN/inputs_1").
  AttrMap n;
  n.set("N", int64_t{2});
  const int sum = build(g, "AddN", "AddN",
                        {Operand::symbolic(&g, {x, 0}, 0, 0), Operand::constant_value(scalar<int32_t>(1), 0, 1)}, n);
  CHECK(input_name(g, sum, 1) == "scope/AddN/inputs_1");
}

TEST_CASE("the op and its constants carry the Python frames that made them", "[tracing][op_builder]") {
  Graph g;
  auto frames = std::make_shared<SourceStack>();
  int id = -1;
  Graph::Failure failure;
  REQUIRE(build_op(g, "Neg", reserve_op_name(g, "Neg"), {Operand::constant_value(scalar<float>(2))},
                   AttrMap(), frames, &id, &failure).ok());
  CHECK(g.node(id).defined_at == frames);
  CHECK(g.node(g.node(id).inputs[0].node).defined_at == frames);
}

TEST_CASE("operands of enclosing graphs are captured through every graph in between", "[tracing][op_builder]") {
  auto outer = std::make_shared<Graph>();
  const int x = placeholder(*outer, DType::kFloat32, Shape{}, "x");
  auto branch = new_subgraph(outer, "cond/");
  auto body = new_subgraph(branch, "cond/while/");
  CHECK(can_capture(*body, outer.get()));
  CHECK(can_capture(*body, body.get()));
  CHECK_FALSE(can_capture(*outer, body.get()));  // an inner graph's tensor is out of scope outside
  const int neg = build(*body, "Neg", "Neg", {Operand::symbolic(outer.get(), {x, 0})});
  CHECK(body->node(neg).name == "cond/while/Neg");
  CHECK(input_name(*body, neg, 0) == "cond/while/cond/x");
  REQUIRE(trace_of(*branch).captures.size() == 1);
  CHECK(trace_of(*branch).captures[0].outer == Endpoint{x, 0});
  REQUIRE(trace_of(*body).captures.size() == 1);
  CHECK(trace_of(*body).captures[0].outer == Endpoint{trace_of(*branch).captures[0].placeholder, 0});
  // A second use captures nothing new.
  build(*body, "Neg", "Neg", {Operand::symbolic(outer.get(), {x, 0})});
  CHECK(trace_of(*body).captures.size() == 1);
}

TEST_CASE("a variable handle is a Const of a function graph, captured from the outermost graph in a branch",
          "[tracing][op_builder]") {
  const Tensor handle = make_resource_tensor(std::make_shared<VariableResource>(DType::kFloat32, Shape{2}));
  AttrMap dtype;
  dtype.set("dtype", DType::kFloat32);
  auto outer = std::make_shared<Graph>();
  CHECK_FALSE(captures_resource_handles(*outer));
  const int read = build(*outer, "ReadVariableOp", "ReadVariableOp", {Operand::constant_value(handle)}, dtype);
  CHECK(input_name(*outer, read, 0) == "ReadVariableOp/resource");
  auto branch = new_subgraph(outer, "cond/");
  CHECK(captures_resource_handles(*branch));
  const int nodes_before = outer->num_nodes();
  const int inner_read = build(*branch, "ReadVariableOp", "ReadVariableOp", {Operand::constant_value(handle)}, dtype);
  CHECK(outer->num_nodes() == nodes_before);  // the outer graph's Const of that variable is reused
  REQUIRE(trace_of(*branch).captures.size() == 1);
  CHECK(outer->node(trace_of(*branch).captures[0].outer.node).name == "ReadVariableOp/resource");
  CHECK(branch->node(inner_read).output_shapes[0] == Shape{2});
}

TEST_CASE("op building failures say what kind they are", "[tracing][op_builder]") {
  Graph g;
  const int x = placeholder(g, DType::kInt32, Shape{}, "x");
  const int a = placeholder(g, DType::kFloat32, Shape{2, 3}, "a");
  int id = -1;
  Graph::Failure failure = Graph::Failure::kOther;
  // TF raises a dtype mismatch as TypeError...
  Status s = build_op(g, "AddV2", reserve_op_name(g, "add"),
                      {Operand::symbolic(&g, {x, 0}, 0), Operand::constant_value(scalar<float>(1), 1)}, AttrMap(),
                      nullptr, &id, &failure);
  CHECK_FALSE(s.ok());
  CHECK(failure == Graph::Failure::kInputType);
  CHECK(s.message() == "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'.");
  // ...and a shape function's error as ValueError.
  s = build_op(g, "MatMul", reserve_op_name(g, "MatMul"),
               {Operand::symbolic(&g, {a, 0}, 0), Operand::symbolic(&g, {a, 0}, 1)}, AttrMap(), nullptr, &id, &failure);
  CHECK_FALSE(s.ok());
  CHECK(failure == Graph::Failure::kShapeFunction);
  CHECK(s.message().rfind("Dimensions must be equal, but are 3 and 2 for '{{node MatMul}}", 0) == 0);
  // A tensor of a graph that does not enclose this one is refused (the bindings check first, to
  // raise TF's out-of-scope error).
  Graph unrelated;
  const int u = placeholder(unrelated, DType::kInt32, Shape{}, "u");
  Endpoint e;
  CHECK(add_operand(g, op_def("Neg"), "Neg", Operand::symbolic(&unrelated, {u, 0}), nullptr, &e).code() ==
        Code::kInvalidArgument);
  CHECK(add_operand(g, op_def("Neg"), "Neg", Operand::constant_value(scalar<float>(1), 3), nullptr, &e).code() ==
        Code::kInvalidArgument);  // Neg has one input
}

TEST_CASE("function graphs remember the graph they were traced in", "[tracing][graph_trace]") {
  auto f = new_function_graph(nullptr);
  auto g = new_function_graph(f);  // a function traced while tracing f
  auto branch = new_subgraph(g, "cond/");
  Graph unrelated;
  CHECK(traced_inside(*f, *branch));
  CHECK(traced_inside(*g, *branch));
  CHECK_FALSE(traced_inside(*branch, *g));
  CHECK_FALSE(traced_inside(unrelated, *branch));
  CHECK(is_subgraph(*branch));
  CHECK_FALSE(is_subgraph(*g));
  CHECK(enclosing_graph(*g) == nullptr);  // a function graph captures by arguments, not placeholders here
  CHECK(enclosing_graph(*branch) == g.get());
  CHECK(find_trace(unrelated) == nullptr);
  CHECK(find_trace(*g->clone()) == nullptr);  // clones are plain graphs
}

TEST_CASE("inline_call: symbolic inputs are captured, constants become Consts, nodes go under a new scope",
          "[tracing][op_builder]") {
  Graph fn;
  const int p = placeholder(fn, DType::kFloat32, Shape{}, "p");
  int neg = 0;
  REQUIRE(fn.add_node("Neg", "Neg", {{p, 0}}, AttrMap(), &neg).ok());
  fn.arguments = {p};
  fn.results = {{neg, 0}};
  auto outer = std::make_shared<Graph>();
  auto branch = new_subgraph(outer, "cond/");
  const int x = placeholder(*outer, DType::kFloat32, Shape{}, "x");
  std::vector<Endpoint> outputs;
  REQUIRE(inline_call(*branch, fn, {Operand::symbolic(outer.get(), {x, 0})}, "f", &outputs).ok());
  REQUIRE(outputs.size() == 1);
  CHECK(branch->node(outputs[0].node).name.rfind("cond/f/", 0) == 0);
  REQUIRE(inline_call(*branch, fn, {Operand::constant_value(scalar<float>(1))}, "f", &outputs).ok());
  CHECK(branch->node(outputs[0].node).name.rfind("cond/f_1/", 0) == 0);
  CHECK(branch->find_node("cond/Const") >= 0);
}

TEST_CASE("a clone's nodes stand for the graph it was cloned from (custom gradients on a backward graph)",
          "[tracing][capture]") {
  Graph g;
  const int x = placeholder(g, DType::kFloat32, Shape{}, "x");
  const int y = build(g, "Neg", "neg", {Operand::symbolic(&g, Endpoint{x, 0}, 0, 0)});
  std::unique_ptr<Graph> clone = g.clone();
  CHECK(clone->lineage() == g.lineage());
  CHECK(can_capture(*clone, &g));
  Endpoint out;
  REQUIRE(capture(*clone, &g, Endpoint{y, 0}, &out).ok());
  CHECK(out == Endpoint{y, 0});
  // A node the original gained after cloning is not in the clone.
  const int z = build(g, "Neg", "neg", {Operand::symbolic(&g, Endpoint{y, 0}, 0, 0)});
  const Status s = capture(*clone, &g, Endpoint{z, 0}, &out);
  CHECK(s.code() == Code::kInvalidArgument);
  // An unrelated graph with the same node names is not the clone's origin.
  Graph other;
  placeholder(other, DType::kFloat32, Shape{}, "x");
  CHECK(other.lineage() != g.lineage());
  CHECK_FALSE(can_capture(*clone, &other));
  REQUIRE(capture(*clone, &other, Endpoint{0, 0}, &out).ok());
  CHECK(out.node == -1);
}
