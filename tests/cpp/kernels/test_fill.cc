// Tensor-creating kernels: Fill, ZerosLike, OnesLike, Eye, Range, OneHot. Expected values and
// messages are TensorFlow 2.21's for the same inputs; none of the hostile sizes may allocate.
#include <string>

#include "harness.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {


}  // namespace

TEST_CASE("fill", "[kernels][fill]") {
  Tensor y = run1("Fill", {vec<int32_t>({2, 3}), scalar<float>(9.5f)});
  CHECK(y.shape() == Shape({2, 3}));
  CHECK(values<float>(y) == std::vector<float>(6, 9.5f));
  CHECK(values<std::string>(run1("Fill", {vec<int64_t>({2}), scalar<std::string>("a")})) ==
        std::vector<std::string>{"a", "a"});
  // TF's legacy scalars and vectors: dims may be a scalar, value a one-element vector.
  CHECK(run1("Fill", {scalar<int32_t>(2), vec<int32_t>({9})}).shape() == Shape({2}));
  CHECK(contains(run_error("Fill", {vec<int32_t>({2, -3}), scalar<int32_t>(9)}), "Dimension -3 must be >= 0 [Op:Fill]"));
  CHECK(contains(run_error("Fill", {tensor<int32_t>({2, 3}, Shape{1, 2}), scalar<int32_t>(9)}),
                 "dims must represent a vector, got shape [1,2]"));
  CHECK(contains(run_error("Fill", {vec<int32_t>({2}), vec<int32_t>({9, 9})}), "value must represent a scalar, got shape [2]"));
}

TEST_CASE("fill refuses sizes it cannot allocate", "[kernels][fill]") {
  const int64_t big = int64_t(1) << 40;
  Status overflow = run_error("Fill", {vec<int64_t>({big, big}), scalar<float>(0)});
  CHECK(overflow.code() == Code::kInvalidArgument);
  CHECK(contains(overflow, "Shape [1099511627776,1099511627776] would have more than 2**63 - 1 elements"));
  // A zero dim after an overflowing prefix is still rejected (the element count would overflow).
  CHECK(run_error("Fill", {vec<int64_t>({big, big, 0}), scalar<float>(0)}).code() == Code::kInvalidArgument);
  Status oom = run_error("Fill", {vec<int64_t>({int64_t(1) << 31, int64_t(1) << 31}), scalar<float>(0)});
  CHECK(oom.code() == Code::kResourceExhausted);
  CHECK(contains(oom, "OOM when allocating tensor with shape[2147483648,2147483648] and type float on "
                      "/job:localhost/replica:0/task:0/device:CPU:0 by allocator mklcpu"));
}

TEST_CASE("zeros_like and ones_like", "[kernels][fill]") {
  Tensor x = tensor<int32_t>({5, 6}, Shape{1, 2});
  CHECK(values<int32_t>(run1("ZerosLike", {x})) == std::vector<int32_t>{0, 0});
  CHECK(values<uint8_t>(run1("OnesLike", {vec<uint8_t>({7, 8})})) == std::vector<uint8_t>{1, 1});
  CHECK(values<bool>(run1("OnesLike", {vec<bool>({false})})) == std::vector<bool>{true});
  CHECK(values<std::string>(run1("ZerosLike", {vec<std::string>({"a"})})) == std::vector<std::string>{""});
  CHECK(contains(run_error("OnesLike", {vec<std::string>({"a"})}), "Value for attr 'T' of string is not in the list"));
}

TEST_CASE("eye", "[kernels][fill]") {
  AttrMap attrs;
  attrs.set("dtype", DType::kInt32);
  Tensor y = run1("Eye", {scalar<int64_t>(2), scalar<int64_t>(3), vec<int64_t>({2})}, attrs);
  CHECK(y.shape() == Shape({2, 2, 3}));
  CHECK(values<int32_t>(y) == std::vector<int32_t>{1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0});
  CHECK(contains(run_error("Eye", {scalar<int64_t>(2), scalar<int64_t>(-1), vec<int64_t>({})}),
                 "Dimension -1 must be >= 0"));
}

TEST_CASE("range", "[kernels][fill]") {
  CHECK(values<int32_t>(run1("Range", {scalar<int32_t>(10), scalar<int32_t>(0), scalar<int32_t>(-3)})) ==
        std::vector<int32_t>{10, 7, 4, 1});
  CHECK(values<float>(run1("Range", {scalar<float>(5), scalar<float>(1), scalar<float>(-1.5f)})) ==
        std::vector<float>{5, 3.5f, 2});
  // start + i * delta in float32 (no fused multiply-add): TF's last value is 0.90000004.
  CHECK(values<float>(run1("Range", {scalar<float>(0), scalar<float>(1), scalar<float>(0.1f)})).back() ==
        0.1f * 9.0f);
  // The full int64 range, in steps of 2**62 (the distance does not fit int64).
  CHECK(values<int64_t>(run1("Range", {scalar<int64_t>(INT64_MIN), scalar<int64_t>(INT64_MAX),
                                       scalar<int64_t>(int64_t(1) << 62)})) ==
        std::vector<int64_t>{INT64_MIN, -(int64_t(1) << 62), 0, int64_t(1) << 62});
  CHECK(run1("Range", {scalar<int32_t>(2), scalar<int32_t>(2), scalar<int32_t>(-1)}).shape() == Shape({0}));
}

TEST_CASE("range errors", "[kernels][fill]") {
  CHECK(contains(run_error("Range", {scalar<int32_t>(5), scalar<int32_t>(1), scalar<int32_t>(1)}),
                 "Requires start <= limit when delta > 0: 5/1 [Op:Range]"));
  CHECK(contains(run_error("Range", {scalar<int32_t>(1), scalar<int32_t>(5), scalar<int32_t>(-1)}),
                 "Requires start >= limit when delta < 0: 1/5"));
  CHECK(contains(run_error("Range", {scalar<float>(1), scalar<float>(5), scalar<float>(0)}), "Requires delta != 0: 0"));
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  CHECK(contains(run_error("Range", {scalar<float>(0), scalar<float>(nan), scalar<float>(1)}),
                 "Requires start <= limit when delta > 0: 0/nan"));
  CHECK(contains(run_error("Range", {scalar<float>(0), scalar<float>(inf), scalar<float>(1)}),
                 "Requires ((limit - start) / delta) <= 9223372036854775807"));
  CHECK(contains(run_error("Range", {vec<int32_t>({0, 1}), scalar<int32_t>(5), scalar<int32_t>(1)}),
                 "start must be a scalar, not shape [2]"));
  Status oom = run_error("Range", {scalar<int64_t>(0), scalar<int64_t>(int64_t(1) << 62), scalar<int64_t>(1)});
  CHECK(oom.code() == Code::kResourceExhausted);
  CHECK(contains(oom, "OOM when allocating tensor with shape[4611686018427387904] and type int64"));
  // int8 is an allowed Tidx without a CPU kernel, as in TF.
  CHECK(run_error("Range", {scalar<int8_t>(0), scalar<int8_t>(5), scalar<int8_t>(1)}).code() == Code::kNotFound);
}

TEST_CASE("one_hot", "[kernels][fill]") {
  Tensor y = run1("OneHot", {vec<int64_t>({0, 2, -1, 5}), scalar<int32_t>(3), scalar<float>(1), scalar<float>(0)});
  CHECK(y.shape() == Shape({4, 3}));
  CHECK(values<float>(y) == std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0});
  AttrMap axis0;
  axis0.set("axis", int64_t(0));
  Tensor t = run1("OneHot", {vec<uint8_t>({0, 2}), scalar<int32_t>(3), scalar<int32_t>(7), scalar<int32_t>(-7)}, axis0);
  CHECK(t.shape() == Shape({3, 2}));
  CHECK(values<int32_t>(t) == std::vector<int32_t>{7, -7, -7, -7, -7, 7});
  AttrMap axis2;
  axis2.set("axis", int64_t(2));
  CHECK(contains(run_error("OneHot", {vec<int32_t>({0}), scalar<int32_t>(3), scalar<float>(1), scalar<float>(0)}, axis2),
                 "Expected axis to be -1 or between [0, 2).  But received: 2"));
  CHECK(contains(run_error("OneHot", {vec<int32_t>({0}), scalar<int32_t>(-1), scalar<float>(1), scalar<float>(0)}),
                 "depth must be non-negative, got: -1"));
  CHECK(contains(run_error("OneHot", {vec<int32_t>({0}), scalar<int32_t>(3), vec<float>({1}), scalar<float>(0)}),
                 "on_value must be a scalar, but got: [1]"));
}
