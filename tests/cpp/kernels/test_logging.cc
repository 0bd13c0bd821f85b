#include "harness.h"

#include <cmath>
#include <limits>
#include <string>

#include "graphfn/kernels/tensor_text.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("tensor_text follows tf.print's layout and summarizing", "[kernels][logging]") {
  std::vector<int32_t> ten(10);
  for (int i = 0; i < 10; ++i) ten[i] = i;
  CHECK(tensor_text(vec<int32_t>(ten), 3) == "[0 1 2 ... 7 8 9]");
  CHECK(tensor_text(vec<int32_t>(ten), 1) == "[0 ... 9]");
  CHECK(tensor_text(vec<int32_t>(ten), -1) == "[0 1 2 3 4 5 6 7 8 9]");
  CHECK(tensor_text(tensor<int32_t>({1, 2, 3, 4}, Shape{2, 2}), 3) == "[[1 2]\n [3 4]]");
  std::vector<int32_t> cube(24);
  for (int i = 0; i < 24; ++i) cube[i] = i;
  CHECK(tensor_text(tensor<int32_t>(cube, Shape{2, 3, 4}), 3) ==
        "[[[0 1 2 3]\n  [4 5 6 7]\n  [8 9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]");
  CHECK(tensor_text(scalar<int8_t>(-3), 3) == "-3");
  CHECK(tensor_text(vec<bool>({true, false}), 3) == "[1 0]");
}

TEST_CASE("tensor_text prints floats with the fewest digits that read back", "[kernels][logging]") {
  CHECK(tensor_text(vec<float>({0.3f, 43.5f, 4.0f, 0.520907283f, 1e10f, 1e-5f}), -1) ==
        "[0.3 43.5 4 0.520907283 1e+10 1e-05]");
  CHECK(tensor_text(vec<double>({0.1, 1.0 / 3}), -1) == "[0.1 0.33333333333333331]");
  CHECK(tensor_text(scalar<float>(1234567.0f), 3) == "1234567");
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(tensor_text(vec<float>({1, std::nanf(""), inf, -inf}), 3) == "[1 nan inf -inf]");
}

TEST_CASE("tensor_text with a summarize past any length shows everything (no overflow)", "[kernels][logging]") {
  // A loaded graph may carry any int64: the saved-graph fuzzer found 2^62 overflowing 2 * summarize
  // (UBSan builds, GRAPHFN_SANITIZE, catch the overflow; TF refuses summarize past int32).
  const Tensor seven = vec<int32_t>({1, 2, 3, 4, 5, 6, 7});
  for (const int64_t summarize : {int64_t(7), int64_t(1) << 62, std::numeric_limits<int64_t>::max()}) {
    CHECK(tensor_text(seven, summarize) == "[1 2 3 4 5 6 7]");
  }
  CHECK(tensor_text(seven, 3) == "[1 2 3 ... 5 6 7]");
}

TEST_CASE("StringFormat fills placeholders and quotes strings inside tensors", "[kernels][logging]") {
  Tensor words(DType::kString, Shape{2});
  words.data<std::string>()[0] = "a";
  words.data<std::string>()[1] = "b\"c";
  AttrMap attrs;
  attrs.set("template", std::string("x={} w={}"));
  attrs.set("placeholder", std::string("{}"));
  attrs.set("summarize", int64_t(3));
  Tensor out = run1("StringFormat", {scalar<int32_t>(5), words}, attrs);
  CHECK(out.data<std::string>()[0] == "x=5 w=[\"a\" \"b\\\"c\"]");
  Status s = run_error("StringFormat", {scalar<int32_t>(5)}, attrs);
  CHECK(s.message().find("Num placeholders in template and num inputs must match") != std::string::npos);
}

TEST_CASE("PrintV2 rejects unknown streams", "[kernels][logging]") {
  AttrMap attrs;
  attrs.set("output_stream", std::string("somewhere"));
  CHECK(run_error("PrintV2", {Tensor::scalar<std::string>("hi")}, attrs).code() == Code::kInvalidArgument);
}
