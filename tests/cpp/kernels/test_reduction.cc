#include "harness.h"

#include <cmath>
#include <limits>
#include <string>

using namespace graphfn;
using namespace graphfn::testing;

namespace {

AttrMap keep(bool k) {
  AttrMap m;
  m.set("keep_dims", k);
  return m;
}


// x[i, j, l] = i * 100 + j * 10 + l over [2, 3, 4].
Tensor cube() {
  std::vector<int32_t> v;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int l = 0; l < 4; ++l) v.push_back(i * 100 + j * 10 + l);
  return tensor(v, Shape{2, 3, 4});
}

}  // namespace

TEST_CASE("Sum over every combination of axes of a 3-D tensor", "[kernels][reduction]") {
  Tensor x = cube();
  // Expected values by arithmetic on the closed form above.
  CHECK(values<int32_t>(run1("Sum", {x, vec<int32_t>({0, 1, 2})}))[0] == 12 * 100 + 8 * 30 + 6 * 6);
  CHECK(values<int32_t>(run1("Sum", {x, vec<int32_t>({1})})) ==
        std::vector<int32_t>{30, 33, 36, 39, 330, 333, 336, 339});
  CHECK(values<int32_t>(run1("Sum", {x, vec<int32_t>({0})})) ==
        std::vector<int32_t>{100, 102, 104, 106, 120, 122, 124, 126, 140, 142, 144, 146});
  CHECK(values<int32_t>(run1("Sum", {x, vec<int32_t>({2})})) == std::vector<int32_t>{6, 46, 86, 406, 446, 486});
  // Non-adjacent axes: two passes.
  Tensor s02 = run1("Sum", {x, vec<int64_t>({2, 0})}, keep(true));
  CHECK(s02.shape() == Shape({1, 3, 1}));
  CHECK(values<int32_t>(s02) == std::vector<int32_t>{412, 492, 572});
  CHECK(values<int32_t>(run1("Sum", {x, vec<int32_t>({-1, -3})})) == std::vector<int32_t>{412, 492, 572});
  // No axes: a copy.
  Tensor none = run1("Sum", {x, Tensor(DType::kInt32, Shape{0})});
  CHECK(none.shape() == x.shape());
  CHECK(values<int32_t>(none) == values<int32_t>(x));
  // Axes may be any shape.
  CHECK(run1("Sum", {x, tensor<int32_t>({0}, Shape{1, 1})}).shape() == Shape({3, 4}));
}

TEST_CASE("Mean, Max, Min, Prod", "[kernels][reduction]") {
  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  CHECK(values<float>(run1("Mean", {x, scalar<int32_t>(1)})) == std::vector<float>{2, 5});
  CHECK(values<float>(run1("Mean", {x, scalar<int32_t>(0)})) == std::vector<float>{2.5f, 3.5f, 4.5f});
  CHECK(values<float>(run1("Max", {x, scalar<int32_t>(0)})) == std::vector<float>{4, 5, 6});
  CHECK(values<float>(run1("Min", {x, scalar<int32_t>(1)})) == std::vector<float>{1, 4});
  CHECK(values<float>(run1("Prod", {x, vec<int32_t>({0, 1})})) == std::vector<float>{720});
  Tensor i = tensor<int8_t>({-7, 0, -7, -1}, Shape{2, 2});
  CHECK(values<int8_t>(run1("Mean", {i, scalar<int32_t>(1)})) == std::vector<int8_t>{-3, -4});
}

TEST_CASE("integer Mean accumulates wider than its type; Sum and Prod wrap", "[kernels][reduction]") {
  const int32_t big = std::numeric_limits<int32_t>::max();
  CHECK(values<int32_t>(run1("Mean", {vec<int32_t>({big, big, 4}), scalar<int32_t>(0)}))[0] == 1431655766);
  CHECK(values<int32_t>(run1("Mean", {tensor<int32_t>({big, big, big, big}, Shape{2, 2}), scalar<int32_t>(0)})) ==
        std::vector<int32_t>{big, big});
  CHECK(values<uint8_t>(run1("Mean", {vec<uint8_t>({200, 200}), scalar<int32_t>(0)}))[0] == 200);
  CHECK(values<int8_t>(run1("Sum", {vec<int8_t>({127, 1}), scalar<int32_t>(0)}))[0] == -128);
  CHECK(values<int32_t>(run1("Prod", {vec<int32_t>({big, 2}), scalar<int32_t>(0)}))[0] == -2);
  CHECK(values<int16_t>(run1("Prod", {vec<int16_t>({-1, -1, 300, 300}), scalar<int32_t>(0)}))[0] == 24464);
}

TEST_CASE("empty reductions give the identity", "[kernels][reduction]") {
  Tensor e = Tensor(DType::kFloat32, Shape{0, 3});
  CHECK(values<float>(run1("Sum", {e, scalar<int32_t>(0)})) == std::vector<float>(3, 0.f));
  CHECK(values<float>(run1("Prod", {e, scalar<int32_t>(0)})) == std::vector<float>(3, 1.f));
  CHECK(values<float>(run1("Max", {e, scalar<int32_t>(0)}))[0] == -std::numeric_limits<float>::infinity());
  CHECK(values<float>(run1("Min", {e, scalar<int32_t>(0)}))[0] == std::numeric_limits<float>::infinity());
  CHECK(std::isnan(values<float>(run1("Mean", {e, scalar<int32_t>(0)}))[0]));
  CHECK(run1("Sum", {e, scalar<int32_t>(1)}).shape() == Shape({0}));
  Tensor ei = Tensor(DType::kInt32, Shape{0, 2});
  CHECK(values<int32_t>(run1("Max", {ei, scalar<int32_t>(0)}))[0] == std::numeric_limits<int32_t>::lowest());
  CHECK(values<int32_t>(run1("Min", {ei, scalar<int32_t>(0)}))[0] == std::numeric_limits<int32_t>::max());
  CHECK(values<int32_t>(run1("Mean", {ei, scalar<int32_t>(0)})) == std::vector<int32_t>{0, 0});
  Tensor eb = Tensor(DType::kBool, Shape{2, 0});
  CHECK(values<bool>(run1("Any", {eb, scalar<int32_t>(1)})) == std::vector<bool>{false, false});
  CHECK(values<bool>(run1("All", {eb, scalar<int64_t>(1)})) == std::vector<bool>{true, true});
}

TEST_CASE("Max and Min propagate NaN", "[kernels][reduction]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = tensor<float>({1, nan, nan, 2}, Shape{2, 2});
  for (int axis : {0, 1}) {
    for (const char* op : {"Max", "Min"}) {
      auto v = values<float>(run1(op, {x, scalar<int32_t>(axis)}));
      CHECK(std::isnan(v[0]));
      CHECK(std::isnan(v[1]));
    }
  }
  CHECK(std::isnan(values<float>(run1("Max", {vec<float>({1, nan, 3}), scalar<int32_t>(0)}))[0]));
}

TEST_CASE("Any and All", "[kernels][reduction]") {
  Tensor b = tensor<bool>({true, false, false, false}, Shape{2, 2});
  CHECK(values<bool>(run1("Any", {b, scalar<int32_t>(1)})) == std::vector<bool>{true, false});
  CHECK(values<bool>(run1("All", {b, scalar<int32_t>(0)})) == std::vector<bool>{false, false});
  CHECK(values<bool>(run1("Any", {b, vec<int64_t>({0, 1})}, keep(true))) == std::vector<bool>{true});
}

TEST_CASE("reduction axis errors", "[kernels][reduction]") {
  Tensor x = cube();
  CHECK(message(run_error("Sum", {x, vec<int32_t>({0, -3})}))
            .find("Invalid reduction arguments: Axes contains duplicate dimension: 0 [Op:Sum]") != std::string::npos);
  CHECK(message(run_error("Mean", {x, vec<int32_t>({3})}))
            .find("Invalid reduction dimension (3 for input with 3 dimension(s) [Op:Mean]") != std::string::npos);
  // Range is checked axis by axis, before later duplicates.
  CHECK(message(run_error("Max", {x, vec<int32_t>({5, 0, 0})})).find("Invalid reduction dimension (5") != std::string::npos);
  CHECK(message(run_error("Max", {x, vec<int32_t>({0, 0, 5})})).find("duplicate dimension: 0") != std::string::npos);
  CHECK(message(run_error("Sum", {scalar<float>(1), scalar<int64_t>(-1)}))
            .find("Invalid reduction dimension (-1 for input with 0 dimension(s)") != std::string::npos);
  CHECK(message(run_error("Sum", {vec<bool>({true}), scalar<int32_t>(0)})).find("Value for attr 'T' of bool") != std::string::npos);
  CHECK(message(run_error("Sum", {x, scalar<float>(0)})).find("Value for attr 'Tidx' of float") != std::string::npos);
}

TEST_CASE("ArgMax and ArgMin", "[kernels][reduction][argminmax]") {
  Tensor x = tensor<int32_t>({1, 5, 3, 4, 5, 0}, Shape{2, 3});
  CHECK(values<int64_t>(run1("ArgMax", {x, scalar<int32_t>(1)})) == std::vector<int64_t>{1, 1});
  CHECK(values<int64_t>(run1("ArgMax", {x, scalar<int32_t>(0)})) == std::vector<int64_t>{1, 0, 0});
  CHECK(values<int64_t>(run1("ArgMin", {x, scalar<int64_t>(-1)})) == std::vector<int64_t>{0, 2});
  AttrMap to_int16;
  to_int16.set("output_type", DType::kInt16);
  CHECK(values<int16_t>(run1("ArgMax", {x, scalar<int16_t>(0)}, to_int16)) == std::vector<int16_t>{1, 0, 0});
  // ArgMin has no int16 output or dimension (TF's op definitions differ here).
  CHECK(run_error("ArgMin", {x, scalar<int32_t>(0)}, to_int16).message().find("attr 'output_type' of int16") != std::string::npos);
  CHECK(run_error("ArgMin", {x, scalar<int16_t>(0)}).message().find("attr 'Tidx' of int16") != std::string::npos);
  // int64 dimensions keep their low 32 bits, as in TF.
  CHECK(values<int64_t>(run1("ArgMax", {x, scalar<int64_t>((int64_t(1) << 32) + 1)})) == std::vector<int64_t>{1, 1});
  CHECK(values<int64_t>(run1("ArgMax", {vec<bool>({false, true, true}), scalar<int32_t>(0)}))[0] == 1);
  CHECK(run1("ArgMax", {Tensor(DType::kFloat32, Shape{0, 3}), scalar<int32_t>(1)}).shape() == Shape({0}));
}

TEST_CASE("ArgMax skips NaN unless every value is NaN", "[kernels][reduction][argminmax]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto argmax = [](std::vector<double> v) { return values<int64_t>(run1("ArgMax", {vec<double>(v), scalar<int32_t>(0)}))[0]; };
  auto argmin = [](std::vector<double> v) { return values<int64_t>(run1("ArgMin", {vec<double>(v), scalar<int32_t>(0)}))[0]; };
  CHECK(argmax({1, nan, 3}) == 2);
  CHECK(argmax({nan, 1, 3}) == 2);
  CHECK(argmax({3, nan, 1}) == 0);
  CHECK(argmax({nan, nan}) == 0);
  CHECK(argmin({nan, 3, nan, 1}) == 3);
  CHECK(argmin({1, nan, 3}) == 0);
}

TEST_CASE("ArgMax errors", "[kernels][reduction][argminmax]") {
  Tensor x = tensor<int32_t>({1, 5, 3, 4}, Shape{2, 2});
  CHECK(message(run_error("ArgMax", {x, scalar<int32_t>(2)}))
            .find("Expected dimension in the range [-2, 2), but got 2 [Op:ArgMax]") != std::string::npos);
  CHECK(message(run_error("ArgMin", {x, vec<int32_t>({1})}))
            .find("dim must be a scalar, but received tensor of shape: [1]") != std::string::npos);
  CHECK(message(run_error("ArgMax", {scalar<int32_t>(5), scalar<int32_t>(0)}))
            .find("Expected dimension in the range [0, 0), but got 0") != std::string::npos);
  CHECK(message(run_error("ArgMax", {Tensor(DType::kFloat32, Shape{3, 0}), scalar<int32_t>(1)}))
            .find("Reduction axis 1 is empty in shape [3,0]") != std::string::npos);
}

TEST_CASE("ClipByValue", "[kernels][clip]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor t = vec<float>({1, 5, nan});
  auto clip = values<float>(run1("ClipByValue", {t, scalar<float>(2), scalar<float>(3)}));
  CHECK(clip[0] == 2);
  CHECK(clip[1] == 3);
  CHECK(std::isnan(clip[2]));
  // lo > hi gives lo, like maximum(minimum(t, hi), lo).
  CHECK(values<float>(run1("ClipByValue", {vec<float>({1, 5}), scalar<float>(3), scalar<float>(2)})) ==
        std::vector<float>{3, 3});
  CHECK(values<int32_t>(run1("ClipByValue", {vec<int32_t>({1, 5, 3}), vec<int32_t>({2, 0, 4}), scalar<int32_t>(4)})) ==
        std::vector<int32_t>{2, 4, 4});
  CHECK(message(run_error("ClipByValue", {vec<float>({1, 5, 3}), vec<float>({1, 2}), scalar<float>(3)}))
            .find("clip_value_min and clip_value_max must be either of the same shape as input, or a scalar. "
                  "input shape: [3]clip_value_min shape: [2]clip_value_max shape: []") != std::string::npos);
}
