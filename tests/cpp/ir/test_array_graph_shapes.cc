// Graph building with array ops whose value inputs (shapes, axes, begin/end, sizes) are not
// constants and whose data inputs have partial shapes: every op must build (or fail with TF's
// error) and infer what TF infers. Expected shapes are those TF 2.21 prints at trace time for
// the same inputs. A few graphs are then run, fed values that contradict nothing or something.
#include "harness.h"

#include "graphfn/ir/graph.h"
#include "graphfn/runtime/plan.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

const Shape kUnknown = Shape::unknown_rank();
constexpr int64_t kAny = Shape::kUnknownDim;

struct Builder {
  Graph g;

  Endpoint ph(DType dt, const Shape& shape) {
    int id = 0;
    REQUIRE(g.add_placeholder(dt, shape, "p", &id).ok());
    g.arguments.push_back(id);
    return {id, 0};
  }
  Endpoint ints(const Shape& shape) { return ph(DType::kInt32, shape); }
  Endpoint c(const Tensor& value) {
    int id = 0;
    REQUIRE(g.add_const(value, "c", &id).ok());
    return {id, 0};
  }
  Status add(const std::string& op, const std::vector<Endpoint>& inputs, const AttrMap& attrs, int* id) {
    return g.add_node(op, op, inputs, attrs, id);
  }
  // The inferred shape of output `index` of a node that must build.
  std::string shape(const std::string& op, const std::vector<Endpoint>& inputs, const AttrMap& attrs = AttrMap(),
                    int index = 0) {
    int id = 0;
    Status s = add(op, inputs, attrs, &id);
    INFO(op << ": " << s.to_string());
    REQUIRE(s.ok());
    REQUIRE(index < static_cast<int>(g.node(id).output_shapes.size()));
    return g.node(id).output_shapes[index].to_string();
  }
  Endpoint node(const std::string& op, const std::vector<Endpoint>& inputs, const AttrMap& attrs = AttrMap()) {
    int id = 0;
    Status s = add(op, inputs, attrs, &id);
    INFO(op << ": " << s.to_string());
    REQUIRE(s.ok());
    return {id, 0};
  }
  std::string error(const std::string& op, const std::vector<Endpoint>& inputs, const AttrMap& attrs = AttrMap()) {
    int id = 0;
    Status s = add(op, inputs, attrs, &id);
    REQUIRE_FALSE(s.ok());
    return s.message();
  }
};

AttrMap attr(const std::string& name, AttrValue value) {
  AttrMap a;
  a.set(name, std::move(value));
  return a;
}

// Runs `b`'s graph for `results`, feeding its placeholders in order.
Status run_graph(Builder& b, const std::vector<Endpoint>& results, const std::vector<Tensor>& feeds,
                 std::vector<Tensor>* out) {
  b.g.results = results;
  std::shared_ptr<const Plan> plan;
  GRAPHFN_RETURN_IF_ERROR(Plan::build(b.g, &plan));
  return plan->run(feeds.data(), static_cast<int>(feeds.size()), out);
}

}  // namespace

TEST_CASE("Reshape infers from partial inputs and unknown shape values", "[ir][graph][array]") {
  Builder b;
  CHECK(b.shape("Reshape", {b.ints({4}), b.ints({2})}) == "[?,?]");
  CHECK(b.shape("Reshape", {b.ints({4}), b.ints({1})}) == "[4]");  // one dim holds every element
  CHECK(b.shape("Reshape", {b.ints({4}), b.ints({kAny})}) == "<unknown>");
  CHECK(b.shape("Reshape", {b.ints({4}), b.ints(kUnknown)}) == "<unknown>");
  CHECK(b.shape("Reshape", {b.ints({kAny, 3}), b.c(vec<int32_t>({-1, 2}))}) == "[?,2]");
  CHECK(b.shape("Reshape", {b.ints({kAny, 3}), b.c(vec<int32_t>({2, 3}))}) == "[2,3]");
  CHECK(b.shape("Reshape", {b.ints({kAny, 3}), b.c(vec<int32_t>({0, -1}))}) == "[0,?]");
  CHECK(b.shape("Reshape", {b.ints({kAny, 0}), b.c(vec<int32_t>({-1, 2}))}) == "[0,2]");
  CHECK(b.shape("Reshape", {b.ints(kUnknown), b.c(vec<int32_t>({3, -1}))}) == "[3,?]");
  CHECK(b.shape("Reshape", {b.ints({kAny}), b.c(Tensor(DType::kInt32, Shape{0}))}) == "[]");
  CHECK(b.error("Reshape", {b.ints({kAny, 3}), b.c(vec<int32_t>({2, 2}))}) ==
        "Dimension size must be evenly divisible by 3 but is 4");
  CHECK(b.error("Reshape", {b.ints({kAny, 0}), b.c(vec<int32_t>({2, 2}))}) ==
        "Input to reshape is a tensor with 0 values, but the requested shape has 4");
  CHECK(b.error("Reshape", {b.ints({4}), b.ints({2, 2})}) == "sizes input must be 1-D, not [2,2]");
  CHECK(b.error("Reshape", {b.ints({kAny}), b.c(vec<int32_t>({-1, -1}))}) ==
        "Only one input size may be -1, not both 0 and 1");
}

TEST_CASE("Transpose, ExpandDims and Squeeze with partial inputs", "[ir][graph][array]") {
  Builder b;
  CHECK(b.shape("Transpose", {b.ints({2, 3}), b.ints({2})}) == "[?,?]");
  CHECK(b.shape("Transpose", {b.ints({5}), b.ints({1})}) == "[?]");
  CHECK(b.shape("Transpose", {b.ints(kUnknown), b.ints({3})}) == "[?,?,?]");
  CHECK(b.shape("Transpose", {b.ints(kUnknown), b.ints(kUnknown)}) == "<unknown>");
  CHECK(b.shape("Transpose", {b.ints({kAny, 3}), b.c(vec<int32_t>({1, 0}))}) == "[3,?]");
  CHECK(b.shape("Transpose", {b.ints(kUnknown), b.c(vec<int32_t>({1, 0, 2}))}) == "[?,?,?]");
  CHECK(b.error("Transpose", {b.ints({3, 3}), b.ints({3})}) ==
        "transpose expects a vector of size 2. But input(1) is a vector of size 3");

  CHECK(b.shape("ExpandDims", {b.ints({2, 3}), b.ints({})}) == "<unknown>");
  CHECK(b.shape("ExpandDims", {b.ints(kUnknown), b.c(scalar<int32_t>(0))}) == "<unknown>");
  CHECK(b.shape("ExpandDims", {b.ints({kAny, 3}), b.c(scalar<int32_t>(-1))}) == "[?,3,1]");
  CHECK(b.error("ExpandDims", {b.ints({kAny}), b.c(scalar<int32_t>(5))}) ==
        "dim 5 not in the interval [-2, 1].");  // TF's graph-building words

  CHECK(b.shape("Squeeze", {b.ints({kAny, 2})}) == "<unknown>");  // the unknown dim may be 1
  CHECK(b.shape("Squeeze", {b.ints({2, 1, 3})}) == "[2,3]");
  CHECK(b.shape("Squeeze", {b.ints(kUnknown)}) == "<unknown>");
  CHECK(b.shape("Squeeze", {b.ints({kAny, 1, kAny})}, attr("squeeze_dims", std::vector<int64_t>{1})) == "[?,?]");
  CHECK(b.shape("Squeeze", {b.ints({kAny, 2})}, attr("squeeze_dims", std::vector<int64_t>{0})) == "[2]");
  CHECK(b.error("Squeeze", {b.ints({kAny, 2})}, attr("squeeze_dims", std::vector<int64_t>{1})) ==
        "Can not squeeze dim[1], expected a dimension of 1, got 2");
}

TEST_CASE("ConcatV2, Pack and Unpack merge partial shapes", "[ir][graph][array]") {
  Builder b;
  CHECK(b.shape("ConcatV2", {b.ints({3}), b.ints({2}), b.ints({})}) == "[?]");
  CHECK(b.shape("ConcatV2", {b.ints(kUnknown), b.ints(kUnknown), b.ints({})}) == "<unknown>");
  CHECK(b.shape("ConcatV2", {b.ints({kAny, 3}), b.ints(kUnknown), b.c(scalar<int32_t>(0))}) == "[?,3]");
  CHECK(b.shape("ConcatV2", {b.ints(kUnknown), b.ints(kUnknown), b.c(scalar<int32_t>(0))}) == "<unknown>");
  CHECK(b.shape("ConcatV2", {b.ints({kAny, 3}), b.ints({2, kAny}), b.c(scalar<int32_t>(1))}) == "[2,?]");
  CHECK(b.shape("ConcatV2", {b.ints({2, 3}), b.ints({4, 3}), b.c(scalar<int32_t>(0))}) == "[6,3]");
  CHECK(b.error("ConcatV2", {b.ints({kAny, 3}), b.ints({2, 4}), b.c(scalar<int32_t>(0))}) ==
        "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [?,3] vs. shape[1] = [2,4]");
  CHECK(b.error("ConcatV2", {b.ints(kUnknown), b.ints({kAny, 3}), b.ints({2}), b.c(scalar<int32_t>(0))}) ==
        "ConcatOp : Ranks of all input tensors should match: shape[1] = [?,3] vs. shape[2] = [2]");
  CHECK(b.error("ConcatV2", {b.ints({}), b.ints(kUnknown), b.ints({})}) ==
        "ConcatOp : Can't concatenate scalars (use tf.stack instead)");

  CHECK(b.shape("Pack", {b.ints({kAny, 3}), b.ints({2, kAny})}, attr("axis", int64_t{1})) == "[2,2,3]");
  CHECK(b.shape("Pack", {b.ints(kUnknown), b.ints({2})}, attr("axis", int64_t{1})) == "[2,2]");
  CHECK(b.shape("Pack", {b.ints(kUnknown), b.ints(kUnknown)}, attr("axis", int64_t{5})) == "<unknown>");
  CHECK(b.error("Pack", {b.ints({kAny, 3}), b.ints({2, 4})}) ==
        "Shapes of all inputs must match: values[0].shape = [?,3] != values[1].shape = [2,4]");

  AttrMap two = attr("num", int64_t{2});
  CHECK(b.shape("Unpack", {b.ints(kUnknown)}, two, 1) == "<unknown>");
  AttrMap five = attr("num", int64_t{5});
  CHECK(b.shape("Unpack", {b.ints({kAny, 3})}, five, 4) == "[3]");
  CHECK(b.error("Unpack", {b.ints({4, 3})}, five) == "Input shape axis 0 must equal 5, got shape [4,3]");
}

TEST_CASE("Shape, Size and Rank of partial shapes", "[ir][graph][array]") {
  Builder b;
  CHECK(b.shape("Shape", {b.ints(kUnknown)}) == "[?]");
  CHECK(b.shape("Shape", {b.ints({kAny, 3})}) == "[2]");
  CHECK(b.shape("Size", {b.ints(kUnknown)}) == "[]");
  CHECK(b.shape("Rank", {b.ints(kUnknown)}) == "[]");
}

TEST_CASE("Fill, Eye, Range and OneHot with unknown sizes", "[ir][graph][fill]") {
  Builder b;
  CHECK(b.shape("Fill", {b.ints({3}), b.c(scalar<int32_t>(1))}) == "[?,?,?]");
  CHECK(b.shape("Fill", {b.ints({kAny}), b.c(scalar<int32_t>(1))}) == "<unknown>");
  CHECK(b.shape("Fill", {b.ints(kUnknown), b.c(scalar<int32_t>(1))}) == "<unknown>");
  // A value of unknown length may be a one-element vector, which eager Fill accepts.
  CHECK(b.shape("Fill", {b.c(vec<int32_t>({2})), b.ints({kAny})}) == "[2]");
  CHECK(b.error("Fill", {b.c(vec<int32_t>({2})), b.ints({3})}) == "value must represent a scalar, got shape [3]");
  CHECK(b.error("Fill", {b.ints({3}), b.ints({2, 1})}) == "value must represent a scalar, got shape [2,1]");

  const Endpoint no_batch = b.c(Tensor(DType::kInt64, Shape{0}));
  const Endpoint n = b.ph(DType::kInt64, {});
  CHECK(b.shape("Eye", {n, n, no_batch}) == "[?,?]");
  CHECK(b.shape("Eye", {b.c(scalar<int64_t>(2)), n, no_batch}) == "[2,?]");
  CHECK(b.shape("Eye", {b.c(scalar<int64_t>(3)), b.c(scalar<int64_t>(3)), b.ph(DType::kInt64, {2})}) == "[?,?,3,3]");
  CHECK(b.shape("Eye", {n, n, b.ph(DType::kInt64, kUnknown)}) == "<unknown>");
  CHECK(b.error("Eye", {b.c(scalar<int64_t>(-2)), n, no_batch}) == "Dimension -2 must be >= 0");

  CHECK(b.shape("Range", {b.c(scalar<int32_t>(0)), b.ints({}), b.c(scalar<int32_t>(1))}) == "[?]");
  CHECK(b.shape("Range", {b.ints(kUnknown), b.ints(kUnknown), b.ints(kUnknown)}) == "[?]");
  CHECK(b.error("Range", {b.ints({2}), b.ints({}), b.ints({})}) == "start must be a scalar, not shape [2]");

  const Endpoint on = b.c(scalar<float>(1)), off = b.c(scalar<float>(0));
  CHECK(b.shape("OneHot", {b.ints({kAny}), b.ints({}), on, off}) == "[?,?]");
  CHECK(b.shape("OneHot", {b.ints({2}), b.ints({}), on, off}) == "[2,?]");
  CHECK(b.shape("OneHot", {b.ints(kUnknown), b.c(scalar<int32_t>(3)), on, off}, attr("axis", int64_t{0})) ==
        "<unknown>");
  CHECK(b.shape("OneHot", {b.ints({kAny, 2}), b.c(scalar<int32_t>(3)), on, off}, attr("axis", int64_t{1})) ==
        "[?,3,2]");
  CHECK(b.error("OneHot", {b.ints({2}), b.c(scalar<int32_t>(-1)), on, off}) == "depth must be non-negative, got: -1");
}

TEST_CASE("StridedSlice with unknown begin, end or strides", "[ir][graph][slicing]") {
  Builder b;
  const Endpoint one = b.c(vec<int32_t>({1}));
  // All of begin, end and strides unknown (tf.strided_slice(x, b, e, s)): nothing is known.
  CHECK(b.shape("StridedSlice", {b.ints({4}), b.ints({1}), b.ints({1}), b.ints({1})}) == "<unknown>");
  // x[i] (begin i, end i + 1, shrink) and x[i:] with a run-time i.
  CHECK(b.shape("StridedSlice", {b.ints({4}), b.ints({1}), b.ints({1}), one}, attr("shrink_axis_mask", int64_t{1})) ==
        "[]");
  CHECK(b.shape("StridedSlice", {b.ints({kAny}), b.ints({1}), b.c(vec<int32_t>({0})), one},
                attr("end_mask", int64_t{1})) == "[?]");
  // x[:, i] on [2, 3]: the first dim is whole, the second is shrunk.
  AttrMap col;
  col.set("begin_mask", int64_t{1});
  col.set("end_mask", int64_t{1});
  col.set("shrink_axis_mask", int64_t{2});
  CHECK(b.shape("StridedSlice", {b.ints({2, 3}), b.ints({2}), b.ints({2}), b.c(vec<int32_t>({1, 1}))}, col) == "[2]");
  // x[i, 1:] on [2, 3]: begin is packed from i and 1, so neither is known.
  AttrMap row;
  row.set("end_mask", int64_t{2});
  row.set("shrink_axis_mask", int64_t{1});
  CHECK(b.shape("StridedSlice", {b.ints({2, 3}), b.ints({2}), b.ints({2}), b.c(vec<int32_t>({1, 1}))}, row) == "[?]");
  // Constant spec over partial input: x[1:, ::-1] on [?, 3]; anything on an unknown rank.
  AttrMap rev;
  rev.set("begin_mask", int64_t{2});
  rev.set("end_mask", int64_t{3});
  const Endpoint begin = b.c(vec<int32_t>({1, 0})), end = b.c(vec<int32_t>({0, 0}));
  const Endpoint strides = b.c(vec<int32_t>({1, -1}));
  CHECK(b.shape("StridedSlice", {b.ints({kAny, 3}), begin, end, strides}, rev) == "[?,3]");
  CHECK(b.shape("StridedSlice", {b.ints(kUnknown), begin, end, strides}, rev) == "<unknown>");
  CHECK(b.shape("StridedSlice", {b.ints({kAny, 3}), b.ints({kAny}), b.ints({kAny}), b.ints({kAny})}) == "<unknown>");
  CHECK(b.error("StridedSlice", {b.ints({4}), b.ints({1}), b.ints({2}), one}) ==
        "Expected begin, end, and strides to be 1D equal size tensors, but got shapes [1], [2], and [1] instead.");
  CHECK(b.error("StridedSlice", {b.ints({kAny}), b.ints({1}), b.ints({1}), b.c(vec<int32_t>({0}))}) ==
        "strides[0] must be non-zero");
}

TEST_CASE("Slice, GatherV2, SelectV2 and Where with partial inputs", "[ir][graph][slicing]") {
  Builder b;
  CHECK(b.shape("Slice", {b.ints(kUnknown), b.ints({2}), b.ints(kUnknown)}) == "[?,?]");
  CHECK(b.shape("Slice", {b.ints(kUnknown), b.ints(kUnknown), b.ints(kUnknown)}) == "<unknown>");
  CHECK(b.shape("Slice", {b.ints({kAny, 3}), b.c(vec<int32_t>({0, 1})), b.ints({2})}) == "[?,?]");
  CHECK(b.shape("Slice", {b.ints({kAny, 3}), b.ints({2}), b.c(vec<int32_t>({1, -1}))}) == "[1,?]");
  CHECK(b.shape("Slice", {b.ints({kAny, 3}), b.c(vec<int32_t>({0, 1})), b.c(vec<int32_t>({-1, 2}))}) == "[?,2]");
  CHECK(b.error("Slice", {b.ints({kAny, 3}), b.ints({3}), b.ints({3})}) ==
        "Expected begin and size arguments to be 1-D tensors of size 2, but got shapes [3] and [3] instead.");

  const Endpoint zero = b.c(scalar<int32_t>(0)), one = b.c(scalar<int32_t>(1));
  CHECK(b.shape("GatherV2", {b.ints(kUnknown), b.ints({2}), zero}) == "<unknown>");
  CHECK(b.shape("GatherV2", {b.ints({kAny, 3}), b.ints(kUnknown), zero}) == "<unknown>");
  CHECK(b.shape("GatherV2", {b.ints({kAny, 3}), b.ints({2, 2}), one}) == "[?,2,2]");
  CHECK(b.shape("GatherV2", {b.ints({kAny, 3}), b.ints({2}), b.ints({})}) == "[?,?]");
  CHECK(b.shape("GatherV2", {b.ints({4, 3}), b.ints({kAny, 2}), one}, attr("batch_dims", int64_t{1})) == "[4,2]");
  CHECK(b.shape("GatherV2", {b.ints({kAny, 3}), b.ints({4, 2}), one}, attr("batch_dims", int64_t{1})) == "[?,2]");
  CHECK(b.error("GatherV2", {b.ints({kAny, 3}), b.ints({2}), b.c(scalar<int32_t>(2))}) ==
        "Shape must be at least rank 3 but is rank 2");
  CHECK(b.error("GatherV2", {b.ints({}), b.ints({2}), b.ints({})}) == "params must be at least 1 dimensional");

  CHECK(b.shape("SelectV2", {b.ph(DType::kBool, kUnknown), b.ints({2}), b.ints({2})}) == "<unknown>");
  CHECK(b.shape("SelectV2", {b.ph(DType::kBool, {kAny, 1}), b.ints({kAny}), b.c(scalar<int32_t>(0))}) == "[?,?]");
  CHECK(b.shape("Where", {b.ph(DType::kBool, kUnknown)}) == "[?,?]");
  CHECK(b.shape("Where", {b.ph(DType::kBool, {kAny, 2})}) == "[?,2]");
}

TEST_CASE("graphs built from unknown shapes check real values when run", "[ir][graph][array]") {
  SECTION("x[i] and x[i:] with i fed at run time") {
    Builder b;
    const Endpoint x = b.ints({kAny}), i = b.ints({});
    const Endpoint one = b.c(scalar<int32_t>(1));
    const Endpoint begin = b.node("Pack", {i});
    const Endpoint end = b.node("Pack", {b.node("AddV2", {i, one})});
    const Endpoint strides = b.c(vec<int32_t>({1}));
    const Endpoint item = b.node("StridedSlice", {x, begin, end, strides}, attr("shrink_axis_mask", int64_t{1}));
    const Endpoint rest = b.node("StridedSlice", {x, begin, end, strides}, attr("end_mask", int64_t{1}));
    std::vector<Tensor> out;
    REQUIRE(run_graph(b, {item, rest}, {vec<int32_t>({5, 6, 7}), scalar<int32_t>(1)}, &out).ok());
    CHECK(values<int32_t>(out[0]) == std::vector<int32_t>{6});
    CHECK(out[0].shape() == Shape());
    CHECK(values<int32_t>(out[1]) == std::vector<int32_t>{6, 7});
    Status s = run_graph(b, {item}, {vec<int32_t>({5, 6, 7}), scalar<int32_t>(7)}, &out);
    CHECK(s.message().find("slice index 7 of dimension 0 out of bounds.") != std::string::npos);
  }
  SECTION("Unpack with a num the fed value contradicts") {
    Builder b;
    const Endpoint x = b.ints({kAny, 3});
    int id = 0;
    REQUIRE(b.add("Unpack", {x}, attr("num", int64_t{2}), &id).ok());
    std::vector<Tensor> out;
    REQUIRE(run_graph(b, {{id, 0}, {id, 1}}, {tensor<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3})}, &out).ok());
    CHECK(values<int32_t>(out[1]) == std::vector<int32_t>{4, 5, 6});
    Status s = run_graph(b, {{id, 0}}, {tensor<int32_t>({1, 2, 3}, {1, 3})}, &out);
    CHECK(s.message().find("Input shape axis 0 must equal 2, got shape [1,3]") != std::string::npos);
  }
  SECTION("Reshape, Fill, Eye and Range sized at run time, hostile sizes included") {
    Builder b;
    const Endpoint x = b.ints(kUnknown), s = b.ints({kAny}), n = b.ph(DType::kInt64, {});
    const Endpoint reshaped = b.node("Reshape", {x, s});
    const Endpoint filled = b.node("Fill", {s, b.c(scalar<float>(2))});
    const Endpoint eye = b.node("Eye", {n, n, b.c(Tensor(DType::kInt64, Shape{0}))}, attr("dtype", DType::kFloat32));
    std::vector<Tensor> out;
    REQUIRE(run_graph(b, {reshaped, filled, eye}, {vec<int32_t>({1, 2, 3, 4}), vec<int32_t>({2, 2}), scalar<int64_t>(2)},
                      &out).ok());
    CHECK(out[0].shape() == Shape({2, 2}));
    CHECK(values<float>(out[1]) == std::vector<float>{2, 2, 2, 2});
    CHECK(values<float>(out[2]) == std::vector<float>{1, 0, 0, 1});
    CHECK_FALSE(run_graph(b, {reshaped}, {vec<int32_t>({1, 2, 3}), vec<int32_t>({2, 2}), scalar<int64_t>(1)}, &out).ok());
    CHECK_FALSE(run_graph(b, {filled}, {vec<int32_t>({1}), vec<int32_t>({1 << 30, 1 << 30}), scalar<int64_t>(1)}, &out)
                    .ok());
    CHECK_FALSE(run_graph(b, {eye}, {vec<int32_t>({1}), vec<int32_t>({1}), scalar<int64_t>(-1)}, &out).ok());
    CHECK_FALSE(run_graph(b, {eye}, {vec<int32_t>({1}), vec<int32_t>({1}), scalar<int64_t>(int64_t{1} << 40)}, &out)
                    .ok());
  }
}
