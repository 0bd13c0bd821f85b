// Selection kernels: StridedSlice, Slice, GatherV2, SelectV2, Where. Expected values and messages
// are TensorFlow 2.21's (or NumPy's) for the same inputs.
#include <string>

#include "harness.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {


std::vector<int32_t> iota(int n) {
  std::vector<int32_t> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

struct Masks {
  int64_t begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink = 0;
  AttrMap attrs() const {
    AttrMap a;
    a.set("begin_mask", begin);
    a.set("end_mask", end);
    a.set("ellipsis_mask", ellipsis);
    a.set("new_axis_mask", new_axis);
    a.set("shrink_axis_mask", shrink);
    return a;
  }
};

Tensor strided(const Tensor& x, std::vector<int64_t> b, std::vector<int64_t> e, std::vector<int64_t> s,
               const Masks& m = Masks()) {
  return run1("StridedSlice", {x, vec<int64_t>(b), vec<int64_t>(e), vec<int64_t>(s)}, m.attrs());
}

Status strided_error(const Tensor& x, std::vector<int64_t> b, std::vector<int64_t> e, std::vector<int64_t> s,
                     const Masks& m = Masks()) {
  return run_error("StridedSlice", {x, vec<int64_t>(b), vec<int64_t>(e), vec<int64_t>(s)}, m.attrs());
}

}  // namespace

TEST_CASE("strided slice: ranges, negative steps, clamping", "[kernels][slicing]") {
  Tensor x = tensor<int32_t>(iota(60), Shape{3, 4, 5});
  // x[1:, ::-2, -1] (NumPy: [[19, 9], [39, 29]]... for rows 1 and 2)
  Masks m;
  m.end = 0b011;
  m.begin = 0b010;
  m.shrink = 0b100;
  Tensor y = strided(x, {1, 0, -1}, {0, 0, 0}, {1, -2, 1}, m);
  CHECK(y.shape() == Shape({2, 2}));
  CHECK(values<int32_t>(y) == std::vector<int32_t>{39, 29, 59, 49});
  // x[-10:10] on a vector clamps to the whole range; x[5:] is empty.
  Tensor v = vec<int32_t>({1, 2, 3});
  CHECK(values<int32_t>(strided(v, {-10}, {10}, {1})) == std::vector<int32_t>{1, 2, 3});
  CHECK(strided(v, {5}, {0}, {1}, Masks{0, 1}).shape() == Shape({0}));
  CHECK(values<int32_t>(strided(v, {0}, {0}, {-1}, Masks{1, 1})) == std::vector<int32_t>{3, 2, 1});
  // Huge strides and bounds do not overflow: TF gives [1] and [3].
  const int64_t max = INT64_MAX, min = INT64_MIN;
  CHECK(values<int32_t>(strided(v, {min}, {max}, {max})) == std::vector<int32_t>{1});
  CHECK(values<int32_t>(strided(v, {max}, {min}, {min})) == std::vector<int32_t>{3});
}

TEST_CASE("strided slice: ellipsis, new axes and shrinking", "[kernels][slicing]") {
  Tensor row = tensor<int32_t>({1, 2, 3}, Shape{1, 3});
  Masks m;
  m.ellipsis = 1;
  m.new_axis = 2;  // row[..., None]
  CHECK(strided(row, {0, 1}, {1, 2}, {1, 1}, m).shape() == Shape({1, 3, 1}));
  Masks both;
  both.new_axis = 1;
  both.shrink = 1;  // a new axis wins over shrinking
  CHECK(strided(vec<int32_t>({1, 2, 3}), {1}, {2}, {1}, both).shape() == Shape({1, 3}));
  Masks shrink;
  shrink.shrink = 1;
  Tensor s = strided(vec<int32_t>({1, 2, 3}), {-3}, {-2}, {1}, shrink);
  CHECK(s.shape() == Shape());
  CHECK(values<int32_t>(s) == std::vector<int32_t>{1});
  // A full-range slice shares the input's buffer.
  Tensor whole = strided(row, {0}, {0}, {1}, Masks{1, 1});
  CHECK(whole.raw_data() == row.raw_data());
}

TEST_CASE("strided slice errors", "[kernels][slicing]") {
  Tensor v = vec<int32_t>({1, 2, 3});
  Masks shrink;
  shrink.shrink = 1;
  CHECK(contains(strided_error(v, {5}, {6}, {1}, shrink), "slice index 5 of dimension 0 out of bounds. [Op:StridedSlice]"));
  CHECK(contains(strided_error(v, {-4}, {-3}, {1}, shrink), "slice index -1 of dimension 0 out of bounds."));
  CHECK(contains(strided_error(v, {1}, {2}, {-1}, shrink), "only stride 1 allowed on non-range indexing."));
  CHECK(contains(strided_error(v, {0}, {0}, {0}), "strides[0] must be non-zero"));
  Masks ellipses;
  ellipses.ellipsis = 3;
  CHECK(contains(strided_error(v, {1}, {2}, {1}, ellipses), "Multiple ellipses in slice spec not allowed"));
  Masks three;
  three.shrink = 7;
  CHECK(contains(strided_error(tensor<int32_t>({1, 2}, Shape{1, 2}), {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, three),
                 "Index out of range using input dim 2; input has only 2 dims"));
  CHECK(contains(strided_error(scalar<int32_t>(5), {0}, {1}, {1}, shrink), "Attempting to slice scalar input."));
  CHECK(contains(run_error("StridedSlice", {v, vec<int64_t>({1}), vec<int64_t>({2, 3}), vec<int64_t>({1})}),
                 "Expected begin, end, and strides to be 1D equal size tensors, but got shapes [1], [2], and [1] instead."));
}

TEST_CASE("slice", "[kernels][slicing]") {
  Tensor x = tensor<int32_t>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor y = run1("Slice", {x, vec<int32_t>({0, 1}), vec<int32_t>({2, -1})});
  CHECK(y.shape() == Shape({2, 2}));
  CHECK(values<int32_t>(y) == std::vector<int32_t>{2, 3, 5, 6});
  CHECK(run1("Slice", {x, vec<int64_t>({0, 3}), vec<int64_t>({1, 0})}).shape() == Shape({1, 0}));
  CHECK(contains(run_error("Slice", {x, vec<int32_t>({0, 1}), vec<int32_t>({2, 3})}),
                 "Expected size[1] in [0, 2], but got 3 [Op:Slice]"));
  CHECK(contains(run_error("Slice", {x, vec<int32_t>({-1, 1}), vec<int32_t>({1, 1})}),
                 "Expected begin[0] in [0, 2], but got -1"));
  CHECK(contains(run_error("Slice", {x, vec<int32_t>({0}), vec<int32_t>({1})}),
                 "Expected begin and size arguments to be 1-D tensors of size 2, but got shapes [1] and [1] instead."));
}

TEST_CASE("gather along an axis, with batch dims", "[kernels][slicing]") {
  Tensor x = tensor<int32_t>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor cols = run1("GatherV2", {x, vec<int32_t>({2, 0}), scalar<int32_t>(1)});
  CHECK(cols.shape() == Shape({2, 2}));
  CHECK(values<int32_t>(cols) == std::vector<int32_t>{3, 1, 6, 4});
  CHECK(values<int32_t>(run1("GatherV2", {x, scalar<int64_t>(1), scalar<int32_t>(0)})) == std::vector<int32_t>{4, 5, 6});
  AttrMap batch;
  batch.set("batch_dims", int64_t(1));
  Tensor b = run1("GatherV2", {x, tensor<int16_t>({0, 1, 2, 2}, Shape{2, 2}), scalar<int32_t>(1)}, batch);
  CHECK(values<int32_t>(b) == std::vector<int32_t>{1, 2, 6, 6});
  Tensor s = run1("GatherV2", {vec<std::string>({"a", "b"}), vec<int32_t>({1, 1}), scalar<int32_t>(0)});
  CHECK(values<std::string>(s) == std::vector<std::string>{"b", "b"});
}

TEST_CASE("gather errors", "[kernels][slicing]") {
  Tensor v = vec<int32_t>({1, 2, 3});
  CHECK(contains(run_error("GatherV2", {v, scalar<int32_t>(3), scalar<int32_t>(0)}),
                 "{{function_node __wrapped__GatherV2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
                 "indices = 3 is not in [0, 3) [Op:GatherV2]"));
  Tensor x = tensor<int32_t>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  CHECK(contains(run_error("GatherV2", {x, tensor<int32_t>({0, 1, 2, 2}, Shape{2, 2}), scalar<int32_t>(0)}),
                 "indices[1,0] = 2 is not in [0, 2)"));
  CHECK(contains(run_error("GatherV2", {x, vec<int32_t>({0}), scalar<int32_t>(2)}), "Shape must be at least rank 3 but is rank 2"));
  CHECK(contains(run_error("GatherV2", {scalar<int32_t>(5), scalar<int32_t>(0), scalar<int32_t>(0)}),
                 "params must be at least 1 dimensional"));
  AttrMap batch;
  batch.set("batch_dims", int64_t(3));
  CHECK(contains(run_error("GatherV2", {x, tensor<int32_t>({0, 1, 2, 2}, Shape{2, 2}), scalar<int32_t>(1)}, batch),
                 "Expected batch_dims in the range [-2, 2], but got 3"));
  batch.set("batch_dims", int64_t(1));
  CHECK(contains(run_error("GatherV2", {x, tensor<int32_t>({0, 1, 2}, Shape{3, 1}), scalar<int32_t>(1)}, batch),
                 "params.shape[0]: 2 should be equal to indices.shape[0]: 3"));
}

TEST_CASE("select broadcasts condition, then and else", "[kernels][slicing]") {
  Tensor cond = tensor<bool>({true, false}, Shape{2, 1});
  Tensor y = run1("SelectV2", {cond, tensor<int32_t>({0, 1, 2, 3, 4, 5}, Shape{2, 3}), vec<int32_t>({10, 20, 30})});
  CHECK(values<int32_t>(y) == std::vector<int32_t>{0, 1, 2, 10, 20, 30});
  Tensor s = run1("SelectV2", {vec<bool>({true, false}), scalar<std::string>("a"), scalar<std::string>("b")});
  CHECK(values<std::string>(s) == std::vector<std::string>{"a", "b"});
  CHECK(contains(run_error("SelectV2", {vec<bool>({true, false, true}), vec<int32_t>({1, 2}), vec<int32_t>({3, 4})}),
                 "condition [3], then [2], and else [2] must be broadcastable [Op:SelectV2]"));
}

TEST_CASE("where lists the coordinates of true elements", "[kernels][slicing]") {
  Tensor y = run1("Where", {tensor<bool>({true, false, false, true}, Shape{2, 2})});
  CHECK(y.shape() == Shape({2, 2}));
  CHECK(values<int64_t>(y) == std::vector<int64_t>{0, 0, 1, 1});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(values<int64_t>(run1("Where", {vec<float>({0.0f, -0.0f, nan})})) == std::vector<int64_t>{2});
  CHECK(run1("Where", {Tensor(DType::kBool, Shape{2, 0})}).shape() == Shape({0, 2}));
  CHECK(contains(run_error("Where", {scalar<bool>(true)}), "WhereOp : Unhandled input dimensions: 0"));
}
