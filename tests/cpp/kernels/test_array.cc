// Shape and layout kernels: Reshape, Transpose, ExpandDims, Squeeze, ConcatV2, Pack, Unpack,
// Shape, Size, Rank. Expected values and messages are TensorFlow 2.21's for the same inputs.
#include <string>

#include "harness.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {


AttrMap attr_int(const std::string& name, int64_t v) {
  AttrMap a;
  a.set(name, v);
  return a;
}

}  // namespace

TEST_CASE("reshape infers -1 and shares the buffer", "[kernels][array]") {
  Tensor x = tensor<int32_t>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor y = run1("Reshape", {x, vec<int32_t>({-1, 2})});
  CHECK(y.shape() == Shape({3, 2}));
  CHECK(y.raw_data() == x.raw_data());
  CHECK(run1("Reshape", {x, vec<int64_t>({6})}).shape() == Shape({6}));
  // An empty tensor reshaped to [0, -1] keeps its other dims (zero dims are not counted).
  CHECK(run1("Reshape", {Tensor(DType::kFloat32, Shape{0, 7}), vec<int32_t>({0, -1})}).shape() == Shape({0, 7}));
  CHECK(run1("Reshape", {Tensor(DType::kFloat32, Shape{0}), vec<int32_t>({-1, 0})}).shape() == Shape({1, 0}));
}

TEST_CASE("reshape errors", "[kernels][array]") {
  Tensor x = vec<int32_t>({1, 2, 3});
  CHECK(contains(run_error("Reshape", {x, vec<int32_t>({4})}),
                 "Input to reshape is a tensor with 3 values, but the requested shape has 4 [Op:Reshape]"));
  CHECK(contains(run_error("Reshape", {x, vec<int32_t>({-1, 2})}),
                 "Input to reshape is a tensor with 3 values, but the requested shape requires a multiple of 2"));
  CHECK(contains(run_error("Reshape", {x, vec<int32_t>({-1, -1})}), "Only one input size may be -1, not both 0 and 1"));
  CHECK(contains(run_error("Reshape", {x, vec<int32_t>({-2, 2})}), "Size 0 must be non-negative, not -2"));
  CHECK(contains(run_error("Reshape", {x, tensor<int32_t>({3}, Shape{1, 1})}), "sizes input must be 1-D, not [1,1]"));
  CHECK(contains(run_error("Reshape", {x, vec<int64_t>({int64_t(1) << 40, int64_t(1) << 40})}),
                 "Shape [1099511627776, 1099511627776] has too many elements"));
  CHECK(contains(run_error("Reshape", {x, vec<int32_t>({-1, 0})}),
                 "Input to reshape is a tensor with 3 values, but the requested shape has 0"));
}

TEST_CASE("transpose permutes, normalizes negative perms and validates", "[kernels][array]") {
  Tensor x = tensor<int32_t>({0, 1, 2, 3, 4, 5}, Shape{2, 3});
  Tensor y = run1("Transpose", {x, vec<int32_t>({1, 0})});
  CHECK(y.shape() == Shape({3, 2}));
  CHECK(values<int32_t>(y) == std::vector<int32_t>{0, 3, 1, 4, 2, 5});
  CHECK(values<int32_t>(run1("Transpose", {x, vec<int64_t>({-1, 0})})) == std::vector<int32_t>{0, 3, 1, 4, 2, 5});
  CHECK(run1("Transpose", {x, vec<int32_t>({0, 1})}).raw_data() == x.raw_data());
  // 3-D: numpy.transpose(arange(24).reshape(2,3,4), (2,0,1))[1] == [[1,5,9],[13,17,21]]
  std::vector<float> v(24);
  for (int i = 0; i < 24; ++i) v[i] = float(i);
  Tensor z = run1("Transpose", {tensor<float>(v, Shape{2, 3, 4}), vec<int32_t>({2, 0, 1})});
  CHECK(z.shape() == Shape({4, 2, 3}));
  CHECK(std::vector<float>(z.data<float>() + 6, z.data<float>() + 12) == std::vector<float>{1, 5, 9, 13, 17, 21});
  CHECK(contains(run_error("Transpose", {x, vec<int32_t>({0})}),
                 "transpose expects a vector of size 2. But input(1) is a vector of size 1"));
  CHECK(contains(run_error("Transpose", {x, vec<int32_t>({0, 0})}), "1 is missing from {0,0}."));
  CHECK(contains(run_error("Transpose", {x, vec<int32_t>({0, 2})}), "2 is out of range [0 .. 2)"));
  CHECK(contains(run_error("Transpose", {x, vec<int32_t>({-3, 0})}), "-1 is out of range [0 .. 2)"));
  CHECK(contains(run_error("Transpose", {x, tensor<int32_t>({1, 0}, Shape{1, 2})}), "perm must be rank 1, got shape [1,2]"));
}

TEST_CASE("expand_dims and squeeze", "[kernels][array]") {
  Tensor x = vec<int32_t>({1, 2});
  CHECK(run1("ExpandDims", {x, scalar<int32_t>(-2)}).shape() == Shape({1, 2}));
  CHECK(run1("ExpandDims", {x, vec<int64_t>({1})}).shape() == Shape({2, 1}));
  CHECK(contains(run_error("ExpandDims", {x, scalar<int32_t>(2)}), "Tried to expand dim index 2 for tensor with 1 dimensions."));
  CHECK(contains(run_error("ExpandDims", {x, vec<int32_t>({1, 2})}), "'dim' must be a tensor with a single value"));

  Tensor col = tensor<int32_t>({1, 2}, Shape{2, 1});
  CHECK(run1("Squeeze", {col}).shape() == Shape({2}));
  AttrMap dims;
  dims.set("squeeze_dims", std::vector<int64_t>{-1});
  Tensor s = run1("Squeeze", {col}, dims);
  CHECK(s.shape() == Shape({2}));
  CHECK(s.raw_data() == col.raw_data());
  dims.set("squeeze_dims", std::vector<int64_t>{0});
  CHECK(contains(run_error("Squeeze", {col}, dims), "Can not squeeze dim[0], expected a dimension of 1, got 2"));
  dims.set("squeeze_dims", std::vector<int64_t>{2});
  CHECK(contains(run_error("Squeeze", {col}, dims), "Tried to squeeze dim index 2 for tensor with 2 dimensions."));
}

TEST_CASE("concat joins along an axis", "[kernels][array]") {
  Tensor a = tensor<int32_t>({1, 2, 3, 4}, Shape{2, 2});
  Tensor b = tensor<int32_t>({5, 6}, Shape{2, 1});
  Tensor y = run1("ConcatV2", {a, b, scalar<int32_t>(-1)});
  CHECK(y.shape() == Shape({2, 3}));
  CHECK(values<int32_t>(y) == std::vector<int32_t>{1, 2, 5, 3, 4, 6});
  Tensor rows = run1("ConcatV2", {a, tensor<int32_t>({7, 8}, Shape{1, 2}), scalar<int64_t>(0)});
  CHECK(values<int32_t>(rows) == std::vector<int32_t>{1, 2, 3, 4, 7, 8});
  Tensor strings = run1("ConcatV2", {vec<std::string>({"a"}), vec<std::string>({"b", "c"}), scalar<int32_t>(0)});
  CHECK(values<std::string>(strings) == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("concat errors", "[kernels][array]") {
  Tensor a = tensor<int32_t>({1, 2}, Shape{1, 2});
  Status s = run_error("ConcatV2", {a, a, scalar<int32_t>(2)});
  CHECK(contains(s, "{{function_node __wrapped__ConcatV2_N_2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
                    "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but got 2 [Op:ConcatV2]"));
  CHECK(contains(run_error("ConcatV2", {a, tensor<int32_t>({3}, Shape{1, 1}), scalar<int32_t>(0)}),
                 "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [1,2] vs. shape[1] = [1,1]"));
  CHECK(contains(run_error("ConcatV2", {a, vec<int32_t>({3}), scalar<int32_t>(0)}),
                 "ConcatOp : Ranks of all input tensors should match: shape[0] = [1,2] vs. shape[1] = [1]"));
  CHECK(contains(run_error("ConcatV2", {scalar<int32_t>(1), scalar<int32_t>(2), scalar<int32_t>(0)}),
                 "ConcatOp : Can't concatenate scalars (use tf.stack instead)"));
  CHECK(contains(run_error("ConcatV2", {a, a, vec<int32_t>({0, 1})}),
                 "axis tensor should be a scalar integer, but got shape [2]"));
}

TEST_CASE("pack and unpack", "[kernels][array]") {
  Tensor a = vec<int32_t>({1, 2}), b = vec<int32_t>({3, 4});
  Tensor rows = run1("Pack", {a, b});
  CHECK(rows.shape() == Shape({2, 2}));
  CHECK(values<int32_t>(rows) == std::vector<int32_t>{1, 2, 3, 4});
  Tensor cols = run1("Pack", {a, b}, attr_int("axis", -1));
  CHECK(values<int32_t>(cols) == std::vector<int32_t>{1, 3, 2, 4});
  CHECK(contains(run_error("Pack", {a, vec<int32_t>({5})}),
                 "Shapes of all inputs must match: values[0].shape = [2] != values[1].shape = [1]"));
  CHECK(contains(run_error("Pack", {a, b}, attr_int("axis", 2)), "axis = 2 not in [-2, 2)"));

  Tensor m = tensor<int32_t>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  AttrMap attrs = attr_int("axis", 1);
  attrs.set("num", int64_t(3));
  std::vector<Tensor> parts = run("Unpack", {m}, attrs);
  REQUIRE(parts.size() == 3);
  CHECK(values<int32_t>(parts[1]) == std::vector<int32_t>{2, 5});
  attrs.set("num", int64_t(2));
  Status s = run_error("Unpack", {m}, attrs);
  CHECK(contains(s, "__wrapped__Unpack_num_2_device"));
  CHECK(contains(s, "Input shape axis 1 must equal 2, got shape [2,3]"));
}

TEST_CASE("shape, size and rank", "[kernels][array]") {
  Tensor x(DType::kFloat32, Shape{2, 3});
  CHECK(values<int32_t>(run1("Shape", {x})) == std::vector<int32_t>{2, 3});
  AttrMap i64;
  i64.set("out_type", DType::kInt64);
  CHECK(values<int64_t>(run1("Shape", {x}, i64)) == std::vector<int64_t>{2, 3});
  CHECK(values<int64_t>(run1("Size", {x}, i64)) == std::vector<int64_t>{6});
  CHECK(values<int32_t>(run1("Rank", {x})) == std::vector<int32_t>{2});
  CHECK(contains(run_error("Shape", {Tensor(DType::kFloat32, Shape{0, int64_t(1) << 33})}),
                 "Shape output type is 32-bit  but dim 1 is 8589934592"));
}
