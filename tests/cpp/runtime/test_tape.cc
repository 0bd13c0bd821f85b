// The gradient tape, the gradient builders and the ops gradients are built from.
#include "harness.h"

#include "graphfn/ir/graph_grad_builder.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/runtime/plan.h"
#include "graphfn/runtime/tape.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

Tensor call(const std::string& op, const std::vector<Tensor>& inputs, const AttrMap& attrs = AttrMap()) {
  std::vector<Tensor> out;
  const Status s = execute_and_record(*OpRegistry::global().find(op), inputs.data(),
                                      static_cast<int>(inputs.size()), attrs, &out);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return out[0];
}

// Pushes a tape for the scope of the test.
struct ActiveTape {
  std::shared_ptr<Tape> tape;
  explicit ActiveTape(bool persistent = false) : tape(std::make_shared<Tape>(persistent, true)) { Tape::push(tape); }
  ~ActiveTape() { Tape::pop(tape.get()); }
};

std::vector<Tensor> grads(Tape& tape, const Tensor& target, const std::vector<Tensor>& sources) {
  std::vector<Tensor> out;
  const Status s = tape.gradient({target}, sources, {}, &out);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return out;
}

}  // namespace

TEST_CASE("tensor ids: copies share one, kernel outputs never inherit one", "[runtime][tape]") {
  Tensor x = scalar<float>(2);
  CHECK(x.id_if_any() == 0);
  const uint64_t id = x.id();
  CHECK(id != 0);
  Tensor copy = x;
  CHECK(copy.id_if_any() == id);
  Tensor forwarded = run1("Identity", {x});  // same buffer, new logical tensor
  CHECK(forwarded.raw_data() == x.raw_data());
  CHECK(forwarded.id_if_any() == 0);
  CHECK(x.reshaped(Shape{1}).id_if_any() == 0);
}

TEST_CASE("the tape records ops on watched tensors only and differentiates them", "[runtime][tape]") {
  ActiveTape active;
  Tensor x = scalar<float>(3), c = scalar<float>(5);
  active.tape->watch(x);
  Tensor unrelated = call("Mul", {c, c});
  CHECK(active.tape->num_entries() == 0);
  Tensor y = call("AddV2", {call("Mul", {x, x}), call("Mul", {x, c})});  // x^2 + 5x
  CHECK(active.tape->num_entries() == 3);
  Tape::pop(active.tape.get());
  std::vector<Tensor> g = grads(*active.tape, y, {x, c, unrelated});
  CHECK(values<float>(g[0]) == std::vector<float>{11});
  CHECK_FALSE(g[1].valid());  // c was never watched
  CHECK_FALSE(g[2].valid());
  CHECK(active.tape->num_entries() == 0);  // a non-persistent tape is released
}

TEST_CASE("int ops and not-differentiable ops are not recorded", "[runtime][tape]") {
  ActiveTape active;
  Tensor i = scalar<int32_t>(3), x = scalar<float>(1);
  active.tape->watch(i);
  active.tape->watch(x);
  call("Mul", {i, i});
  call("Greater", {x, x});
  call("StopGradient", {x});
  CHECK(active.tape->num_entries() == 0);
}

TEST_CASE("gradients broadcast back to each input's shape", "[runtime][tape]") {
  ActiveTape active;
  Tensor x = tensor<double>({1, 2, 3, 4, 5, 6}, Shape{2, 3}), y = vec<double>({10, 20, 30});
  active.tape->watch(x);
  active.tape->watch(y);
  Tensor z = call("Sum", {call("Mul", {x, y}), vec<int32_t>({0, 1})});
  Tape::pop(active.tape.get());
  std::vector<Tensor> g = grads(*active.tape, z, {x, y});
  CHECK(values<double>(g[0]) == std::vector<double>{10, 20, 30, 10, 20, 30});
  CHECK(values<double>(g[1]) == std::vector<double>{5, 7, 9});
  CHECK(g[1].shape() == Shape{3});
}

TEST_CASE("an outer tape records the inner tape's gradient: second derivatives", "[runtime][tape]") {
  ActiveTape outer;
  Tensor x = scalar<float>(2);
  outer.tape->watch(x);
  Tensor dy;
  {
    ActiveTape inner;
    inner.tape->watch(x);
    Tensor y = call("Mul", {call("Mul", {x, x}), x});  // x^3
    Tape::pop(inner.tape.get());
    dy = grads(*inner.tape, y, {x})[0];
  }
  CHECK(values<float>(dy) == std::vector<float>{12});  // 3x^2
  Tape::pop(outer.tape.get());
  CHECK(values<float>(grads(*outer.tape, dy, {x})[0]) == std::vector<float>{12});  // 6x
}

TEST_CASE("an op without a gradient function fails only when a gradient reaches it", "[runtime][tape]") {
  ActiveTape active(/*persistent=*/true);
  Tensor x = tensor<float>({1, 2}, Shape{1, 2});
  active.tape->watch(x);
  AttrMap attrs;
  attrs.set("transpose_b", true);
  Tensor p = call("SparseMatMul", {x, x}, attrs);
  Tensor s = call("Sum", {x, vec<int32_t>({0, 1})});
  Tape::pop(active.tape.get());
  CHECK(values<float>(grads(*active.tape, s, {x})[0]) == std::vector<float>{1, 1});
  std::vector<Tensor> out;
  const Status st = active.tape->gradient({p}, {x}, {}, &out);
  CHECK(st.code() == Code::kNotFound);
  CHECK(st.message() == "gradient registry has no entry for: SparseMatMul");
}

TEST_CASE("BroadcastGradientArgs gives TF's reduction axes", "[kernels][gradient]") {
  auto args = [](std::vector<int32_t> a, std::vector<int32_t> b) {
    std::vector<Tensor> out = run("BroadcastGradientArgs", {vec<int32_t>(a), vec<int32_t>(b)});
    return std::make_pair(values<int32_t>(out[0]), values<int32_t>(out[1]));
  };
  using V = std::vector<int32_t>;
  CHECK(args({2, 1, 3}, {1, 1, 3}) == std::make_pair(V{1}, V{0, 1}));
  CHECK(args({1}, {1}) == std::make_pair(V{}, V{}));
  CHECK(args({}, {2, 3}) == std::make_pair(V{0, 1}, V{}));
  CHECK(args({1, 1}, {1}) == std::make_pair(V{0, 1}, V{0, 1}));
  CHECK(args({5, 1}, {1, 4}) == std::make_pair(V{1}, V{0}));
  CHECK(run_error("BroadcastGradientArgs", {vec<int32_t>({2, 3}), vec<int32_t>({4})}).message() ==
        "{{function_node __wrapped__BroadcastGradientArgs_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Incompatible shapes: [2,3] vs. [4] [Op:BroadcastGradientArgs] name: ");
}

TEST_CASE("BroadcastTo", "[kernels][gradient]") {
  Tensor out = run1("BroadcastTo", {tensor<int32_t>({1, 2}, Shape{2, 1}), vec<int32_t>({3, 2, 2})});
  CHECK(out.shape() == Shape{3, 2, 2});
  CHECK(values<int32_t>(out) == std::vector<int32_t>{1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2});
  CHECK(run_error("BroadcastTo", {vec<int32_t>({1, 2, 3}), vec<int32_t>({2, 2})}).message().find(
            "Incompatible shapes: [3] vs. [2,2] [Op:BroadcastTo]") != std::string::npos);
  CHECK(run_error("BroadcastTo", {vec<int32_t>({1, 2, 3}), vec<int32_t>({-1, 3})}).message().find(
            "Dimension -1 must be >= 0") != std::string::npos);
}

// The design's proof: one gradient function (Mul's, with broadcasting) gives the same values
// when it builds graph nodes (unknown batch dim: BroadcastGradientArgs at run time) as eagerly.
TEST_CASE("one gradient function serves eager and graph builders", "[runtime][tape][graph]") {
  const Tensor x = tensor<float>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  const Tensor y = vec<float>({10, 20, 30});
  const Tensor dz = tensor<float>({1, 1, 2, 2, 3, 3}, Shape{2, 3});
  const OpDef& mul = *OpRegistry::global().find("Mul");
  AttrMap attrs;

  EagerGradBuilder eb;
  GradInputs ein;
  ein.op = &mul;
  ein.attrs = &attrs;
  ein.inputs = {x, y};
  ein.outputs = {run1("Mul", {x, y})};
  ein.output_grads = {dz};
  std::vector<GradValue> eager;
  REQUIRE(call_gradient(eb, ein, &eager).ok());

  Graph g;
  int px = 0, py = 0, pz = 0, pdz = 0;
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{-1, 3}, "x", &px).ok());
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{3}, "y", &py).ok());
  REQUIRE(g.add_placeholder(DType::kFloat32, Shape{-1, 3}, "dz", &pdz).ok());
  REQUIRE(g.add_node("Mul", "mul", {{px, 0}, {py, 0}}, AttrMap(), &pz).ok());
  GraphGradBuilder gb(&g);
  GradInputs gin;
  gin.op = &mul;
  gin.attrs = &attrs;
  gin.inputs = {GradValue(Endpoint{px, 0}), GradValue(Endpoint{py, 0})};
  gin.outputs = {GradValue(Endpoint{pz, 0})};
  gin.output_grads = {GradValue(Endpoint{pdz, 0})};
  std::vector<GradValue> symbolic;
  REQUIRE(call_gradient(gb, gin, &symbolic).ok());
  CHECK(g.find_node("gradients/BroadcastGradientArgs") >= 0);
  g.arguments = {px, py, pdz};
  g.results = {symbolic[0].endpoint, symbolic[1].endpoint};
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(g, &plan).ok());
  const Tensor feeds[] = {x, y, dz};
  std::vector<Tensor> results;
  REQUIRE(plan->run(feeds, 3, &results).ok());

  CHECK(values<float>(eager[0].tensor) == std::vector<float>{10, 20, 60, 20, 60, 90});
  CHECK(values<float>(eager[1].tensor) == std::vector<float>{1 * 1 + 4 * 2, 2 * 1 + 5 * 3, 3 * 2 + 6 * 3});
  CHECK(values<float>(results[0]) == values<float>(eager[0].tensor));
  CHECK(values<float>(results[1]) == values<float>(eager[1].tensor));
  CHECK(results[1].shape() == Shape{3});
}
