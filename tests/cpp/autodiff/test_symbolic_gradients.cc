// Symbolic differentiation of graphs (autodiff/symbolic_gradients.h, autodiff/graph_tape.h) and the
// gradients of eagerly called functions (runtime/function.h).
#include "harness.h"
#include "autodiff/recorded_call.h"

#include "graphfn/autodiff/graph_tape.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/autodiff/symbolic_gradients.h"
#include "graphfn/runtime/function.h"
#include "graphfn/autodiff/tape.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

struct Builder {
  Graph g;
  Endpoint placeholder(DType dt, Shape shape) {
    int id = 0;
    REQUIRE(g.add_placeholder(dt, shape, "x", &id).ok());
    g.arguments.push_back(id);
    return Endpoint{id, 0};
  }
  Endpoint constant(const Tensor& t) {
    int id = 0;
    REQUIRE(g.add_const(t, "c", &id).ok());
    return Endpoint{id, 0};
  }
  Endpoint op(const std::string& name, std::vector<Endpoint> inputs, AttrMap attrs = AttrMap()) {
    int id = 0;
    const Status s = g.add_node(name, name, inputs, std::move(attrs), &id);
    INFO(s.to_string());
    REQUIRE(s.ok());
    return Endpoint{id, 0};
  }
  std::vector<Tensor> run(const std::vector<Endpoint>& results, const std::vector<Tensor>& feeds) {
    g.results = results;
    std::shared_ptr<const Plan> plan;
    Status s = Plan::build(g, &plan);
    INFO(s.to_string());
    REQUIRE(s.ok());
    std::vector<Tensor> out;
    s = plan->run(feeds.data(), static_cast<int>(feeds.size()), &out);
    INFO(s.to_string());
    REQUIRE(s.ok());
    return out;
  }
};


}  // namespace

TEST_CASE("add_gradients matches the eager tape on a small network", "[ir][gradient]") {
  // loss = sum(tanh(x @ w) * x2), x with an unknown batch dimension.
  const Tensor x = tensor<double>({1, -2, 0.5, 3, 0.25, -1}, Shape{2, 3});
  const Tensor w = tensor<double>({0.5, -1, 2, 1.5, 0.25, 3}, Shape{3, 2});
  Builder b;
  const Endpoint xe = b.placeholder(DType::kFloat64, Shape{-1, 3});
  const Endpoint we = b.placeholder(DType::kFloat64, Shape{3, 2});
  const Endpoint h = b.op("Tanh", {b.op("MatMul", {xe, we})});
  const Endpoint loss = b.op("Sum", {b.op("Mul", {h, h}), b.constant(vec<int32_t>({0, 1}))});
  GradientRequest request;
  request.targets = {loss};
  request.sources = {xe, we};
  std::vector<Endpoint> grads;
  const Status s = add_gradients(b.g, request, &grads);
  INFO(s.to_string());
  REQUIRE(s.ok());
  REQUIRE(grads[0].node >= 0);
  REQUIRE(grads[1].node >= 0);
  std::vector<Tensor> symbolic = b.run(grads, {x, w});

  auto tape = std::make_shared<Tape>(false, true);
  push_tape(tape);
  tape->watch(x);
  tape->watch(w);
  Tensor eh = run_recorded("Tanh", {run_recorded("MatMul", {x, w})});
  Tensor eloss = run_recorded("Sum", {run_recorded("Mul", {eh, eh}), vec<int32_t>({0, 1})});
  pop_tape(tape.get());
  std::vector<Tensor> eager;
  REQUIRE(tape->gradient({eloss}, {x, w}, {}, &eager).ok());
  for (int i = 0; i < 2; ++i) {
    CHECK(symbolic[i].shape() == eager[i].shape());
    const std::vector<double> a = values<double>(symbolic[i]), e = values<double>(eager[i]);
    for (size_t k = 0; k < a.size(); ++k) CHECK(a[k] == Approx(e[k]));
  }
}

TEST_CASE("add_gradients: unconnected sources get none, int paths stop", "[ir][gradient]") {
  Builder b;
  const Endpoint x = b.placeholder(DType::kFloat32, Shape{});
  const Endpoint z = b.placeholder(DType::kFloat32, Shape{});
  const Endpoint y = b.op("Mul", {x, x});
  AttrMap to_int;
  to_int.set("DstT", DType::kInt32);
  b.op("Cast", {z}, to_int);
  GradientRequest request;
  request.targets = {y};
  request.sources = {x, z};
  std::vector<Endpoint> grads;
  REQUIRE(add_gradients(b.g, request, &grads).ok());
  CHECK(grads[0].node >= 0);
  CHECK(grads[1].node < 0);
  CHECK(values<float>(b.run({grads[0]}, {scalar<float>(3), scalar<float>(1)})[0]) == std::vector<float>{6});
}

TEST_CASE("recorded_nodes follows the tape's rules", "[ir][gradient]") {
  Builder b;
  const Endpoint x = b.placeholder(DType::kFloat32, Shape{});
  const Endpoint before = b.op("Mul", {x, x});  // 1: before the watch
  const int watch_time = b.g.num_nodes();
  const Endpoint after = b.op("Mul", {x, before});                              // recorded
  const Endpoint cmp = b.op("Greater", {after, x});                             // not differentiable
  const Endpoint outside = b.op("Neg", {after});                                // outside the interval
  std::vector<bool> active(b.g.num_nodes(), true);
  active[outside.node] = false;
  const std::vector<bool> rec = recorded_nodes(b.g, {Watch{x, watch_time}}, active);
  CHECK_FALSE(rec[before.node]);
  CHECK(rec[after.node]);
  CHECK_FALSE(rec[cmp.node]);
  CHECK_FALSE(rec[outside.node]);
}

TEST_CASE("a graph tape: watch time, stop_recording and second derivatives", "[ir][gradient]") {
  auto graph = std::make_shared<Graph>();
  int xid = 0;
  REQUIRE(graph->add_placeholder(DType::kFloat32, Shape{}, "x", &xid).ok());
  graph->arguments.push_back(xid);
  const Endpoint x{xid, 0};
  auto node = [&](const std::string& op, std::vector<Endpoint> in) {
    int id = 0;
    REQUIRE(graph->add_node(op, op, in, AttrMap(), &id).ok());
    return Endpoint{id, 0};
  };
  GraphTape outer(graph), inner(graph);
  outer.start();
  outer.watch(x);
  inner.start();
  inner.watch(x);
  const Endpoint y = node("Mul", {node("Mul", {x, x}), x});  // x^3
  inner.stop();
  std::vector<Endpoint> dy;
  REQUIRE(inner.gradient({GraphTape::Value{y}}, {GraphTape::Value{x}}, {}, &dy).ok());
  outer.stop();
  std::vector<Endpoint> d2y;
  REQUIRE(outer.gradient({GraphTape::Value{dy[0]}}, {GraphTape::Value{x}}, {}, &d2y).ok());
  graph->results = {dy[0], d2y[0]};
  std::shared_ptr<const Plan> plan;
  REQUIRE(Plan::build(*graph, &plan).ok());
  std::vector<Tensor> out;
  const Tensor two = scalar<float>(2);
  REQUIRE(plan->run(&two, 1, &out).ok());
  CHECK(values<float>(out[0]) == std::vector<float>{12});  // 3x^2
  CHECK(values<float>(out[1]) == std::vector<float>{12});  // 6x
}

TEST_CASE("a function called under a tape saves its intermediates and builds its backward once", "[runtime][gradient]") {
  // f(x) = exp(exp(x)): the backward reads exp(x), an intermediate.
  auto graph = std::make_shared<Graph>();
  int xid = 0, e1 = 0, e2 = 0;
  REQUIRE(graph->add_placeholder(DType::kFloat64, Shape{}, "x", &xid).ok());
  graph->arguments.push_back(xid);
  REQUIRE(graph->add_node("Exp", "e1", {Endpoint{xid, 0}}, AttrMap(), &e1).ok());
  REQUIRE(graph->add_node("Exp", "e2", {Endpoint{e1, 0}}, AttrMap(), &e2).ok());
  graph->results = {Endpoint{e2, 0}};
  std::shared_ptr<const CompiledFunction> fn;
  REQUIRE(CompiledFunction::create(graph, "f", OptimizerOptions(), &fn).ok());

  for (double v : {0.5, -1.0}) {
    auto tape = std::make_shared<Tape>(false, true);
    push_tape(tape);
    Tensor x = scalar<double>(v);
    tape->watch(x);
    std::vector<Tensor> y;
    REQUIRE(fn->call(&x, 1, &y).ok());
    CHECK(tape->num_entries() == 1);
    pop_tape(tape.get());
    std::vector<Tensor> g;
    REQUIRE(tape->gradient({y[0]}, {x}, {}, &g).ok());
    CHECK(values<double>(g[0])[0] == Approx(std::exp(std::exp(v)) * std::exp(v)));
  }
  CHECK(fn->num_gradient_builds() == 1);
  // Without a tape the plain plan runs and nothing is built.
  std::shared_ptr<const CompiledFunction> fn2;
  REQUIRE(CompiledFunction::create(graph, "f2", OptimizerOptions(), &fn2).ok());
  Tensor x = scalar<double>(1);
  std::vector<Tensor> y;
  REQUIRE(fn2->call(&x, 1, &y).ok());
  CHECK(fn2->num_gradient_builds() == 0);
}

namespace {

// The gradient override of the test below: 10 * dy for every input, and what it was asked.
std::vector<std::string> g_override_names;
Status times_ten(const std::string& name, GradBuilder& b, const GradInputs& in, std::vector<GradValue>* grads) {
  g_override_names.push_back(name);
  for (size_t i = 0; i < in.inputs.size(); ++i) {
    (*grads)[i] = b.op("Mul", {in.output_grads[i], b.scalar(b.dtype(in.output_grads[i]), 10)});
  }
  return b.status();
}

}  // namespace

TEST_CASE("a node with _gradient_op_type takes the host's gradient override, in graphs and on tapes", "[ir][gradient]") {
  Builder b;
  const Endpoint x = b.placeholder(DType::kFloat32, Shape{});
  AttrMap attrs;
  attrs.set("_gradient_op_type", std::string("CustomGradient-7"));
  const Endpoint y = b.op("IdentityN", {x}, attrs);
  GradientRequest request;
  request.targets = {y};
  request.sources = {x};
  std::vector<Endpoint> grads;

  set_gradient_override(nullptr);  // no host: TF's lookup error
  Status s = add_gradients(b.g, request, &grads);
  CHECK(s.code() == Code::kNotFound);
  CHECK(s.message() == "gradient registry has no entry for: CustomGradient-7");

  g_override_names.clear();
  set_gradient_override(&times_ten);
  s = add_gradients(b.g, request, &grads);
  INFO(s.to_string());
  REQUIRE(s.ok());
  CHECK(g_override_names == std::vector<std::string>{"CustomGradient-7"});
  CHECK(values<float>(b.run(grads, {scalar<float>(2)})[0]) == std::vector<float>{10});

  // On a tape: an entry recorded with the attr (what tf.custom_gradient records eagerly).
  auto tape = std::make_shared<Tape>(false, true);
  push_tape(tape);
  Tensor xe = scalar<float>(2);
  tape->watch(xe);
  std::vector<Tensor> out = {scalar<float>(2)};
  record_on_tapes(custom_gradient_op(), &xe, 1, attrs, &out, nullptr);
  pop_tape(tape.get());
  std::vector<Tensor> eager;
  s = tape->gradient({out[0]}, {xe}, {}, &eager);
  set_gradient_override(nullptr);
  INFO(s.to_string());
  REQUIRE(s.ok());
  CHECK(values<float>(eager[0]) == std::vector<float>{10});
  CHECK(g_override_names.size() == 2);
}
