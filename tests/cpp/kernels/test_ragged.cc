// RaggedRange (tf.ragged.range): row splits and values, scalars broadcast to every row, and TF
// 2.21's messages for bad arguments.
#include "harness.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("ragged range", "[kernels][ragged]") {
  std::vector<Tensor> out = run("RaggedRange", {vec<int32_t>({0, 5, 8}), vec<int32_t>({3, 3, 12}), scalar<int32_t>(1)});
  REQUIRE(out.size() == 2);
  CHECK(values<int64_t>(out[0]) == std::vector<int64_t>{0, 3, 3, 7});  // Tsplits defaults to int64
  CHECK(values<int32_t>(out[1]) == std::vector<int32_t>{0, 1, 2, 8, 9, 10, 11});
  AttrMap attrs;
  attrs.set("Tsplits", DType::kInt32);
  out = run("RaggedRange", {scalar<float>(0.f), scalar<float>(1.f), scalar<float>(0.25f)}, attrs);
  CHECK(values<int32_t>(out[0]) == std::vector<int32_t>{0, 4});
  CHECK(values<float>(out[1]) == std::vector<float>{0.f, 0.25f, 0.5f, 0.75f});
  out = run("RaggedRange", {vec<int64_t>({5, 5}), vec<int64_t>({0, 10}), vec<int64_t>({-2, 3})});
  CHECK(values<int64_t>(out[0]) == std::vector<int64_t>{0, 3, 5});
  CHECK(values<int64_t>(out[1]) == std::vector<int64_t>{5, 3, 1, 5, 8});
}

TEST_CASE("ragged range errors", "[kernels][ragged]") {
  CHECK(contains(run_error("RaggedRange", {vec<int32_t>({1}), vec<int32_t>({2}), scalar<int32_t>(0)}),
                 "Requires delta != 0"));
  CHECK(contains(run_error("RaggedRange", {vec<int32_t>({1, 2}), vec<int32_t>({2, 3, 4}), scalar<int32_t>(1)}),
                 "starts, limits, and deltas must have the same shape"));
  CHECK(contains(run_error("RaggedRange", {tensor<int32_t>({1, 2}, Shape{1, 2}), scalar<int32_t>(3), scalar<int32_t>(1)}),
                 "starts must be a scalar or vector"));
  AttrMap attrs;
  attrs.set("Tsplits", DType::kInt32);
  CHECK(contains(run_error("RaggedRange", {scalar<int64_t>(0), scalar<int64_t>(int64_t(1) << 40), scalar<int64_t>(1)},
                           attrs),
                 "Requires ((limit - start) / delta) <= 2147483647"));
}
