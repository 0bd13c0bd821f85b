// The gradient tape, the gradient builders and the ops gradients are built from.
#include "harness.h"
#include "autodiff/recorded_call.h"

#include <set>
#include <thread>

#include "graphfn/autodiff/graph_grad_builder.h"
#include "graphfn/autodiff/graph_tape.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/runtime/plan.h"
#include "graphfn/autodiff/tape.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {


// Pushes a tape for the scope of the test.
struct ActiveTape {
  std::shared_ptr<Tape> tape;
  explicit ActiveTape(bool persistent = false) : tape(std::make_shared<Tape>(persistent, true)) { push_tape(tape); }
  ~ActiveTape() { pop_tape(tape.get()); }
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
  Tensor unrelated = run_recorded("Mul", {c, c});
  CHECK(active.tape->num_entries() == 0);
  Tensor y = run_recorded("AddV2", {run_recorded("Mul", {x, x}), run_recorded("Mul", {x, c})});  // x^2 + 5x
  CHECK(active.tape->num_entries() == 3);
  pop_tape(active.tape.get());
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
  run_recorded("Mul", {i, i});
  run_recorded("Greater", {x, x});
  run_recorded("StopGradient", {x});
  CHECK(active.tape->num_entries() == 0);
}

TEST_CASE("gradients broadcast back to each input's shape", "[runtime][tape]") {
  ActiveTape active;
  Tensor x = tensor<double>({1, 2, 3, 4, 5, 6}, Shape{2, 3}), y = vec<double>({10, 20, 30});
  active.tape->watch(x);
  active.tape->watch(y);
  Tensor z = run_recorded("Sum", {run_recorded("Mul", {x, y}), vec<int32_t>({0, 1})});
  pop_tape(active.tape.get());
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
    Tensor y = run_recorded("Mul", {run_recorded("Mul", {x, x}), x});  // x^3
    pop_tape(inner.tape.get());
    dy = grads(*inner.tape, y, {x})[0];
  }
  CHECK(values<float>(dy) == std::vector<float>{12});  // 3x^2
  pop_tape(outer.tape.get());
  CHECK(values<float>(grads(*outer.tape, dy, {x})[0]) == std::vector<float>{12});  // 6x
}

TEST_CASE("an op without a gradient function fails only when a gradient reaches it", "[runtime][tape]") {
  static OpDef no_gradient;  // not registered: every registered op has a gradient or none by design
  no_gradient.name = "NoGradient";
  ActiveTape active(/*persistent=*/true);
  Tensor x = vec<float>({1, 2});
  active.tape->watch(x);
  Tensor p = run1("Neg", {x});
  p.assign_new_id();
  active.tape->record(no_gradient, &x, 1, AttrMap(), {p});
  Tensor s = run_recorded("Sum", {x, scalar<int32_t>(0)});
  pop_tape(active.tape.get());
  CHECK(values<float>(grads(*active.tape, s, {x})[0]) == std::vector<float>{1, 1});
  std::vector<Tensor> out;
  const Status st = active.tape->gradient({p}, {x}, {}, &out);
  CHECK(st.code() == Code::kNotFound);
  CHECK(st.message() == "gradient registry has no entry for: NoGradient");
}

TEST_CASE("every registered op has a gradient function or is declared not differentiable", "[ir][gradient]") {
  std::vector<std::string> undeclared;
  for (const std::string& name : OpRegistry::global().op_names()) {
    const OpDef* op = OpRegistry::global().find(name);
    if (!op->grad_fn && !op->not_differentiable) undeclared.push_back(name);
  }
  // Ops TF registers no gradient for: a tape asking for one raises TF's LookupError text; nothing
  // else may lack a declaration.
  const std::set<std::string> no_gradient_in_tf = {
      "AdjustContrastv2", "AdjustHue", "AdjustSaturation", "CropAndResizeGradBoxes", "CropAndResizeGradImage",
      "DenseBincount", "LRNGrad", "Lu", "RandomGammaGrad", "RandomPoissonV2", "ResizeArea", "ResizeBicubicGrad",
      "ResizeNearestNeighborGrad", "ScaleAndTranslateGrad", "SoftsignGrad", "TruncateMod", "Unique",
      "UniqueWithCounts",
      "Bucketize", "Mod", "IgammaGradA",  // older math and special functions (docs/ops.md)
      "DecodeCSV", "ParseExampleV2", "ReadFile", "WriteFile",  // file and parsing ops (docs/io.md)
      "DecodeAndCropJpeg", "DecodeBmp", "DecodeGif", "DecodeImage", "DecodeJpeg", "DecodePng", "EncodeJpeg",
      "EncodeJpegVariableQuality", "EncodePng", "ExtractJpegShape",  // image codecs
      "RFFT3D", "IRFFT3D",  // tf.signal (docs/signal.md)
      "SparseReshape", "SparseReduceMax", "SparseReduceMaxSparse", "SparseReduceSumSparse",
      "SparseFillEmptyRowsGrad", "SparseSliceGrad",  // sparse (docs/sparse.md)
      "StaticRegexFullMatch", "RegexFullMatch", "StaticRegexReplace", "StringLength", "StringLower", "StringNGrams",
      "StringSplitV2", "StringStrip", "StringUpper", "Substr", "UnicodeDecode", "UnicodeDecodeWithOffsets",
      "UnicodeEncode", "UnicodeScript", "UnicodeTranscode",  // tf.strings (docs/strings.md)
      "Bitcast",  // tf.bitcast (docs/ops.md)
      "Bincount", "RaggedBincount", "SparseBincount", "SparseSegmentSumGrad", "SparseSegmentMeanGrad",
      "SparseSegmentSqrtNGrad", "SparseSegmentSumGradV2", "SparseSegmentMeanGradV2",
      "SparseSegmentSqrtNGradV2"};  // bincount and sparse segment gradient ops (docs/ops.md)
  for (const std::string& name : undeclared) {
    INFO("op without a gradient declaration: " << name);
    CHECK(no_gradient_in_tf.count(name) == 1);
  }
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

TEST_CASE("StridedSliceGrad places dy where the slice read", "[kernels][gradient]") {
  // x[1:, ::2] of a [2, 3] input.
  AttrMap attrs;
  attrs.set("end_mask", int64_t{3});
  Tensor out = run1("StridedSliceGrad", {vec<int32_t>({2, 3}), vec<int32_t>({1, 0}), vec<int32_t>({0, 0}),
                                         vec<int32_t>({1, 2}), tensor<float>({7, 8}, Shape{1, 2})}, attrs);
  CHECK(out.shape() == Shape{2, 3});
  CHECK(values<float>(out) == std::vector<float>{0, 0, 0, 7, 0, 8});
  Status s = run_error("StridedSliceGrad", {vec<int32_t>({2, 3}), vec<int32_t>({1, 0}), vec<int32_t>({0, 0}),
                                            vec<int32_t>({1, 2}), tensor<float>({7, 8, 9}, Shape{1, 3})}, attrs);
  CHECK(s.message().find("shape of dy was [1,3] instead of [1,2]") != std::string::npos);
}

TEST_CASE("ConcatOffset", "[kernels][gradient]") {
  AttrMap n3;
  n3.set("N", int64_t{3});
  std::vector<Tensor> out = run("ConcatOffset", {scalar<int32_t>(1), vec<int32_t>({2, 3}), vec<int32_t>({2, 5}),
                                                 vec<int32_t>({2, 1})}, n3);
  CHECK(values<int32_t>(out[0]) == std::vector<int32_t>{0, 0});
  CHECK(values<int32_t>(out[1]) == std::vector<int32_t>{0, 3});
  CHECK(values<int32_t>(out[2]) == std::vector<int32_t>{0, 8});
  AttrMap n2;
  n2.set("N", int64_t{2});
  CHECK(values<int32_t>(run("ConcatOffset", {scalar<int32_t>(-1), vec<int32_t>({2, 3}), vec<int32_t>({2, 5})},
                            n2)[1]) == std::vector<int32_t>{0, 3});
  CHECK(run_error("ConcatOffset", {scalar<int32_t>(1), vec<int32_t>({2, 3}), vec<int32_t>({3, 5})}, n2).message().find(
            "All dimensions except 1 must match. Input 1 has shape [3 5] and doesn't match input 0 with shape [2 3].") !=
        std::string::npos);
  CHECK(run_error("ConcatOffset", {scalar<int32_t>(2), vec<int32_t>({2, 3}), vec<int32_t>({2, 5})}, n2).message().find(
            "Concat dim is out of range: 2 vs. 2") != std::string::npos);
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

// Runs op's gradient function through both builders and checks that they agree: eagerly, and
// as graph nodes over placeholders of the given (possibly partial) shapes, run by a plan.
// Inputs with a null shape become Const nodes (axes, permutations). Returns the eager values.
std::vector<Tensor> compare_builders(const std::string& op_name, const std::vector<Tensor>& inputs,
                                     const std::vector<const Shape*>& shapes, const AttrMap& attrs = AttrMap()) {
  const OpDef& op = *OpRegistry::global().find(op_name);
  std::vector<Tensor> outputs = run(op_name, inputs, attrs);
  std::vector<Tensor> dys;
  for (const Tensor& o : outputs) {  // dy = 1, 2, 3, ... (a different weight per element)
    Tensor d(o.dtype(), o.shape());
    for (int64_t i = 0; i < d.num_elements(); ++i) {
      if (o.dtype() == DType::kFloat32) d.data<float>()[i] = static_cast<float>(i + 1);
      if (o.dtype() == DType::kFloat64) d.data<double>()[i] = static_cast<double>(i + 1);
    }
    dys.push_back(d);
  }

  EagerGradBuilder eb;
  GradInputs ein;
  ein.op = &op;
  ein.attrs = &attrs;
  ein.inputs.assign(inputs.begin(), inputs.end());
  ein.outputs.assign(outputs.begin(), outputs.end());
  ein.output_grads.assign(dys.begin(), dys.end());
  std::vector<GradValue> eager;
  const Status es = call_gradient(eb, ein, &eager);
  INFO(es.to_string());
  REQUIRE(es.ok());

  Graph g;
  GradInputs gin;
  gin.op = &op;
  gin.attrs = &attrs;
  std::vector<Endpoint> endpoints;
  std::vector<Tensor> feeds;
  for (size_t i = 0; i < inputs.size(); ++i) {
    int id = 0;
    if (shapes[i]) {
      REQUIRE(g.add_placeholder(inputs[i].dtype(), *shapes[i], "x" + std::to_string(i), &id).ok());
      g.arguments.push_back(id);
      feeds.push_back(inputs[i]);
    } else {
      REQUIRE(g.add_const(inputs[i], "c" + std::to_string(i), &id).ok());
    }
    endpoints.push_back(Endpoint{id, 0});
    gin.inputs.emplace_back(Endpoint{id, 0});
  }
  int fwd = 0;
  REQUIRE(g.add_node(op, "forward", endpoints, attrs, &fwd).ok());
  for (size_t i = 0; i < outputs.size(); ++i) {
    gin.outputs.emplace_back(Endpoint{fwd, static_cast<int>(i)});
    int id = 0;
    REQUIRE(g.add_placeholder(dys[i].dtype(), g.shape(Endpoint{fwd, static_cast<int>(i)}), "dy", &id).ok());
    g.arguments.push_back(id);
    feeds.push_back(dys[i]);
    gin.output_grads.emplace_back(Endpoint{id, 0});
  }
  GraphGradBuilder gb(&g);
  std::vector<GradValue> symbolic;
  const Status gs = call_gradient(gb, gin, &symbolic);
  INFO(gs.to_string());
  REQUIRE(gs.ok());
  std::vector<Tensor> result;
  for (size_t i = 0; i < eager.size(); ++i) {
    CHECK(eager[i].is_null() == symbolic[i].is_null());
    if (!eager[i].is_null()) {
      g.results.push_back(symbolic[i].endpoint);
      result.push_back(eager[i].tensor);
    }
  }
  std::shared_ptr<const Plan> plan;
  const Status ps = Plan::build(g, &plan);
  INFO(ps.to_string());
  REQUIRE(ps.ok());
  std::vector<Tensor> ran;
  const Status rs = plan->run(feeds.data(), static_cast<int>(feeds.size()), &ran);
  INFO(rs.to_string());
  REQUIRE(rs.ok());
  REQUIRE(ran.size() == result.size());
  for (size_t i = 0; i < ran.size(); ++i) {
    CHECK(ran[i].shape() == result[i].shape());
    if (ran[i].dtype() == DType::kFloat32) CHECK(values<float>(ran[i]) == values<float>(result[i]));
    if (ran[i].dtype() == DType::kFloat64) CHECK(values<double>(ran[i]) == values<double>(result[i]));
  }
  return result;
}

// The design's proof: one gradient function gives the same values when it builds graph nodes
// (with unknown dims, so shapes are computed by ops at run time) as when it runs eagerly.
TEST_CASE("one gradient function serves eager and graph builders", "[runtime][tape][graph]") {
  const Tensor x = tensor<float>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  const Tensor y = vec<float>({10, 20, 30});
  const Shape batch3{-1, 3}, three{3};
  std::vector<Tensor> g = compare_builders("Mul", {x, y}, {&batch3, &three});
  CHECK(values<float>(g[0]) == std::vector<float>{10, 40, 90, 40, 100, 180});  // dy = 1..6 times y
  CHECK(values<float>(g[1]) == std::vector<float>{1 * 1 + 4 * 4, 2 * 2 + 5 * 5, 3 * 3 + 6 * 6});
  CHECK(g[1].shape() == Shape{3});
}

TEST_CASE("gradient functions agree between the eager and graph builders", "[runtime][tape][graph]") {
  const Tensor x = tensor<double>({1, -2, 3, 4, 5, -6}, Shape{2, 3});
  const Tensor w = tensor<double>({0.5, -1, 2, 1.5, 0.25, 3}, Shape{3, 2});
  const Shape batch3{-1, 3}, full23{2, 3}, full32{3, 2}, any2{-1, -1};
  const AttrMap none;
  AttrMap keep;
  keep.set("keep_dims", true);
  for (const Shape* s : {&batch3, &full23}) {
    compare_builders("Sum", {x, vec<int32_t>({0})}, {s, nullptr});
    compare_builders("Mean", {x, scalar<int32_t>(1)}, {s, nullptr});
    compare_builders("Mean", {x, vec<int32_t>({0, 1})}, {s, nullptr}, keep);
    compare_builders("Max", {x, scalar<int32_t>(-1)}, {s, nullptr});
    compare_builders("Min", {x, vec<int32_t>({0})}, {s, nullptr}, keep);
    compare_builders("Softmax", {x}, {s});
    compare_builders("LogSoftmax", {x}, {s});
    compare_builders("Sigmoid", {x}, {s});
    compare_builders("Tanh", {x}, {s});
    compare_builders("Transpose", {x, vec<int32_t>({1, 0})}, {s, nullptr});
    compare_builders("Reshape", {x, vec<int32_t>({3, 2})}, {s, nullptr});
    compare_builders("Pow", {x, scalar<double>(2)}, {s, nullptr});
    compare_builders("Maximum", {x, scalar<double>(2)}, {s, nullptr});
    compare_builders("RealDiv", {x, vec<double>({1, 2, 4})}, {s, nullptr});
    compare_builders("SparseSoftmaxCrossEntropyWithLogits", {x, vec<int32_t>({2, 0})}, {s, nullptr});
    compare_builders("StridedSlice", {x, vec<int32_t>({0, 1}), vec<int32_t>({2, 3}), vec<int32_t>({1, 1})},
                     {s, nullptr, nullptr, nullptr});
  }
  compare_builders("Prod", {x, vec<int32_t>({1})}, {&full23, nullptr});
  // Values only known at run time: the permutation, slice bounds, concat shapes.
  const Shape two{2}, unknown_rank = Shape::unknown_rank();
  compare_builders("Transpose", {x, vec<int32_t>({1, 0})}, {&batch3, &two});
  compare_builders("Slice", {x, vec<int32_t>({0, 1}), vec<int32_t>({2, -1})}, {&batch3, &two, &two});
  compare_builders("Slice", {x, vec<int64_t>({1, 0}), vec<int64_t>({1, 2})}, {&unknown_rank, nullptr, nullptr});
  AttrMap n2;
  n2.set("N", int64_t{2});
  compare_builders("ConcatV2", {x, tensor<double>({7, 8, 9}, Shape{1, 3}), scalar<int32_t>(0)},
                   {&batch3, &any2, nullptr}, n2);
  compare_builders("ConcatV2", {x, x, scalar<int64_t>(-1)}, {&full23, &full23, &unknown_rank}, n2);
  const Shape any1{-1};
  compare_builders("GatherV2", {x, vec<int32_t>({1, 1, 0}), scalar<int32_t>(0)}, {&batch3, &any1, nullptr});
  compare_builders("GatherV2", {w, tensor<int64_t>({2, 0, 2, 2}, Shape{2, 2}), scalar<int32_t>(0)},
                   {&unknown_rank, &unknown_rank, nullptr});
  compare_builders("GatherV2", {x, vec<int32_t>({2, 0}), scalar<int32_t>(1)}, {&full23, nullptr, nullptr});
  compare_builders("MatMul", {x, w}, {&any2, &full32});
  AttrMap tb;
  tb.set("transpose_b", true);
  compare_builders("MatMul", {x, x}, {&full23, &batch3}, tb);
  compare_builders("BatchMatMulV2", {x, w}, {&full23, &any2});
  AttrMap tout;
  tout.set("Tout", DType::kFloat64);
  compare_builders("BatchMatMulV3", {x, w}, {&full23, &full32}, tout);
  compare_builders("Cumsum", {x, scalar<int32_t>(1)}, {&batch3, nullptr});
  compare_builders("SoftmaxCrossEntropyWithLogits", {x, tensor<double>({0.2, 0.3, 0.5, 1, 0, 0}, Shape{2, 3})},
                   {&full23, &full23});
}

// The thread's stack of recording tapes: eager Tapes and GraphTapes, innermost last.
TEST_CASE("one stack holds eager and graph tapes; only eager ones make eager ops record", "[runtime][tape]") {
  REQUIRE(recording_tapes().empty());
  auto eager_tape = std::make_shared<Tape>(false, true);
  auto graph = std::make_shared<Graph>();
  auto graph_tape = std::make_shared<GraphTape>(graph, false);
  CHECK_FALSE(any_tape_recording());
  push_tape(graph_tape);
  CHECK(any_tape_recording());
  CHECK_FALSE(any_tape_active());  // eager dispatch's check: no eager tape records
  CHECK(graph_tape->recording());  // pushing starts a GraphTape
  push_tape(eager_tape);
  CHECK(any_tape_active());
  REQUIRE(recording_tapes().size() == 2);
  CHECK(recording_tapes()[0].get() == graph_tape.get());
  CHECK(recording_tapes()[1].get() == eager_tape.get());
  CHECK(recording_tapes()[0]->kind() == RecordingTape::Kind::kGraph);
  CHECK_FALSE(recording_tapes()[0]->watch_accessed_variables());
  CHECK(recording_tapes()[1]->kind() == RecordingTape::Kind::kEager);

  // An eager op on a watched tensor is recorded by the eager tape; the graph tape is skipped.
  Tensor x = scalar<float>(2);
  eager_tape->watch(x);
  run_recorded("Mul", {x, x});
  CHECK(eager_tape->num_entries() == 1);

  // Popping from the middle keeps the order of the rest.
  CHECK(pop_tape(graph_tape.get()));
  CHECK_FALSE(graph_tape->recording());
  CHECK_FALSE(is_tape_recording(graph_tape.get()));
  CHECK(is_tape_recording(eager_tape.get()));
  CHECK_FALSE(pop_tape(graph_tape.get()));
  CHECK(pop_tape(eager_tape.get()));
  CHECK_FALSE(any_tape_recording());
  CHECK_FALSE(any_tape_active());
}

TEST_CASE("a tape's gradient takes it off the stack while it runs, then puts it back in place",
          "[runtime][tape]") {
  ActiveTape outer, inner;
  auto graph_tape = std::make_shared<GraphTape>(std::make_shared<Graph>());
  push_tape(graph_tape);
  Tensor x = scalar<float>(3);
  inner.tape->watch(x);
  Tensor y = run_recorded("Mul", {x, x});
  grads(*inner.tape, y, {x});
  REQUIRE(recording_tapes().size() == 3);
  CHECK(recording_tapes()[1].get() == inner.tape.get());
  CHECK(pop_tape(graph_tape.get()));
}

TEST_CASE("watched variables: once each by key, in creation order, with their owners", "[runtime][tape]") {
  Tape tape(false, true);
  int a = 0, b = 0, c = 0;
  auto owner = [](int* p) { return std::shared_ptr<const void>(p, [](const void*) {}); };
  VariableKey ka{&a, {-1, 0}}, kb{&b, {-1, 0}};
  VariableKey kc{&c, {4, 0}}, kc1{&c, {4, 1}};  // placeholders: the graph and the endpoint
  CHECK(tape.add_watched_variable(kb, 7, owner(&b)));
  CHECK(tape.add_watched_variable(ka, 3, owner(&a)));
  CHECK_FALSE(tape.add_watched_variable(kb, 7, owner(&b)));
  CHECK(tape.add_watched_variable(kc1, 9, owner(&c)));
  CHECK(tape.add_watched_variable(kc, 5, owner(&c)));
  REQUIRE(tape.watched_variables().size() == 4);
  CHECK(tape.watched_variables()[0].owner.get() == &a);
  CHECK(tape.watched_variables()[1].key == kc);
  CHECK(tape.watched_variables()[2].owner.get() == &b);
  CHECK(tape.watched_variables()[3].key == kc1);
  CHECK(tape.watches_variable(ka));
  tape.reset();  // recordings only: what was watched is still listed (TF, after gradient())
  CHECK(tape.watched_variables().size() == 4);
}

TEST_CASE("each thread has its own stack of recording tapes", "[runtime][tape]") {
  std::vector<std::thread> threads;
  std::vector<int> seen(4, -1);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([i, &seen] {
      std::vector<std::shared_ptr<Tape>> mine;
      for (int k = 0; k <= i; ++k) {
        mine.push_back(std::make_shared<Tape>(false, true));
        push_tape(mine.back());
      }
      bool all_mine = recording_tapes().size() == mine.size();
      for (size_t k = 0; all_mine && k < mine.size(); ++k) all_mine = recording_tapes()[k].get() == mine[k].get();
      seen[i] = all_mine ? static_cast<int>(recording_tapes().size()) : 0;
      for (const auto& t : mine) pop_tape(t.get());
    });
  }
  for (auto& t : threads) t.join();
  CHECK(seen == std::vector<int>{1, 2, 3, 4});
  CHECK_FALSE(any_tape_recording());
}
