#include "harness.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "graphfn/kernels/philox.h"
#include "graphfn/kernels/random_streams.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

AttrMap random_attrs(DType dtype, int64_t seed, int64_t seed2) {
  AttrMap a;
  a.set("dtype", dtype);
  a.set("seed", seed);
  a.set("seed2", seed2);
  return a;
}

template <typename T>
std::vector<T> sample(const std::string& op, int64_t n, int64_t seed, int64_t seed2) {
  return values<T>(run1(op, {vec<int64_t>({n})}, random_attrs(DTypeOf<T>::value, seed, seed2)));
}

template <typename T>
std::vector<T> sample_int(int64_t n, T minval, T maxval, int64_t seed, int64_t seed2) {
  AttrMap a;
  a.set("seed", seed);
  a.set("seed2", seed2);
  return values<T>(run1("RandomUniformInt", {vec<int32_t>({static_cast<int32_t>(n)}), scalar<T>(minval), scalar<T>(maxval)}, a));
}

template <typename T>
double mean(const std::vector<T>& v) {
  double s = 0;
  for (T x : v) s += static_cast<double>(x);
  return s / static_cast<double>(v.size());
}

template <typename T>
double variance(const std::vector<T>& v) {
  const double m = mean(v);
  double s = 0;
  for (T x : v) s += (static_cast<double>(x) - m) * (static_cast<double>(x) - m);
  return s / static_cast<double>(v.size());
}


}  // namespace

// Known-answer vectors published with Random123 (kat_vectors): counter words, key words -> output.
TEST_CASE("philox4x32-10 matches the published known answers", "[kernels][random]") {
  using philox::philox4x32_10;
  CHECK(philox4x32_10({0, 0, 0, 0}, {0, 0}) == philox::Block{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}) ==
        philox::Block{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}) ==
        philox::Block{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("RandomUniform is uniform on [0, 1)", "[kernels][random]") {
  reset_random_streams();
  const int64_t n = 200000;
  auto f = sample<float>("RandomUniform", n, 1, 2);
  auto d = sample<double>("RandomUniform", n, 3, 4);
  CHECK(std::all_of(f.begin(), f.end(), [](float x) { return x >= 0.0f && x < 1.0f; }));
  CHECK(std::all_of(d.begin(), d.end(), [](double x) { return x >= 0.0 && x < 1.0; }));
  // Standard error of the mean is sqrt(1/12/n) ~ 0.00065; of the variance ~ 0.00014.
  CHECK(std::abs(mean(f) - 0.5) < 0.004);
  CHECK(std::abs(mean(d) - 0.5) < 0.004);
  CHECK(std::abs(variance(f) - 1.0 / 12) < 0.001);
  CHECK(std::abs(variance(d) - 1.0 / 12) < 0.001);
  // Each tenth of [0, 1) gets ~n/10 samples (sd ~ 134).
  std::vector<int> bins(10);
  for (float x : f) ++bins[static_cast<int>(x * 10)];
  for (int b : bins) CHECK(std::abs(b - n / 10) < 1000);
}

TEST_CASE("RandomStandardNormal has mean 0, stddev 1 and normal tails", "[kernels][random]") {
  reset_random_streams();
  const int64_t n = 200000;
  auto f = sample<float>("RandomStandardNormal", n, 5, 6);
  auto d = sample<double>("RandomStandardNormal", n, 7, 8);
  CHECK(std::abs(mean(f)) < 0.015);  // se ~ 0.0022
  CHECK(std::abs(std::sqrt(variance(f)) - 1) < 0.01);  // se ~ 0.0016
  CHECK(std::abs(mean(d)) < 0.015);
  CHECK(std::abs(std::sqrt(variance(d)) - 1) < 0.01);
  // P(|z| < 1) = 0.6827, P(|z| < 2) = 0.9545 (se ~ 0.001 and 0.0005).
  int64_t within1 = 0, within2 = 0;
  CHECK(std::all_of(d.begin(), d.end(), [](double x) { return std::isfinite(x); }));
  for (double x : d) {
    within1 += std::abs(x) < 1;
    within2 += std::abs(x) < 2;
  }
  CHECK(std::abs(within1 / double(n) - 0.6827) < 0.006);
  CHECK(std::abs(within2 / double(n) - 0.9545) < 0.003);
}

TEST_CASE("RandomUniformInt covers [minval, maxval) evenly", "[kernels][random]") {
  reset_random_streams();
  const int64_t n = 70000;
  auto v = sample_int<int32_t>(n, -3, 4, 1, 1);
  std::vector<int> counts(7);
  CHECK(std::all_of(v.begin(), v.end(), [](int32_t x) { return x >= -3 && x < 4; }));
  for (int32_t x : v) ++counts[(x + 3) % 7];
  for (int c : counts) CHECK(std::abs(c - 10000) < 500);  // sd ~ 93

  auto w = sample_int<int64_t>(n, 1000000000000, 1000000000002, 2, 2);
  CHECK(std::all_of(w.begin(), w.end(), [](int64_t x) { return x == 1000000000000 || x == 1000000000001; }));
  int64_t ones = 0;
  for (int64_t x : w) ones += x - 1000000000000;
  CHECK(std::abs(ones / double(n) - 0.5) < 0.01);  // se ~ 0.002

  // Full ranges: the difference wraps in unsigned arithmetic; both signs appear about equally.
  auto full32 = sample_int<int32_t>(10000, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), 3, 3);
  auto full64 = sample_int<int64_t>(10000, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 4, 4);
  int neg32 = 0, neg64 = 0;
  for (int32_t x : full32) neg32 += x < 0;
  for (int64_t x : full64) neg64 += x < 0;
  CHECK(std::abs(neg32 - 5000) < 300);
  CHECK(std::abs(neg64 - 5000) < 300);
}

TEST_CASE("a stream continues across calls and rewinds on reset", "[kernels][random]") {
  reset_random_streams();
  auto a1 = sample<float>("RandomUniform", 8, 11, 12);
  auto a2 = sample<float>("RandomUniform", 8, 11, 12);
  CHECK(a1 != a2);
  auto other = sample<float>("RandomUniform", 8, 11, 13);
  CHECK(other != a1);
  reset_random_streams();
  CHECK(sample<float>("RandomUniform", 8, 11, 12) == a1);
  CHECK(sample<float>("RandomUniform", 8, 11, 12) == a2);

  // Separate streams per op and dtype: a normal call in between does not move the uniform stream.
  reset_random_streams();
  sample<float>("RandomUniform", 8, 11, 12);
  sample<float>("RandomStandardNormal", 8, 11, 12);
  sample<double>("RandomUniform", 8, 11, 12);
  CHECK(sample<float>("RandomUniform", 8, 11, 12) == a2);
}

TEST_CASE("element i does not depend on the requested size", "[kernels][random]") {
  // Sizes that end mid-block must take a prefix of the same samples.
  for (int64_t n : {1, 3, 5, 7}) {
    reset_random_streams();
    auto big = sample<double>("RandomStandardNormal", 16, 21, 22);
    reset_random_streams();
    auto small = sample<double>("RandomStandardNormal", n, 21, 22);
    CHECK(std::equal(small.begin(), small.end(), big.begin()));
    reset_random_streams();
    auto ibig = sample_int<int64_t>(16, 0, 1000, 23, 24);
    reset_random_streams();
    auto ismall = sample_int<int64_t>(n, 0, 1000, 23, 24);
    CHECK(std::equal(ismall.begin(), ismall.end(), ibig.begin()));
  }
}

TEST_CASE("seeds (0, 0) are unseeded: fresh samples even after a reset", "[kernels][random]") {
  reset_random_streams();
  auto a = sample<double>("RandomUniform", 4, 0, 0);
  auto b = sample<double>("RandomUniform", 4, 0, 0);
  reset_random_streams();
  auto c = sample<double>("RandomUniform", 4, 0, 0);
  CHECK(a != b);
  CHECK(a != c);
}

TEST_CASE("the stream table stays bounded", "[kernels][random]") {
  reset_random_streams();
  bool all_ok = true;  // execute_eager directly: 65k harness assertions would drown the report
  std::vector<Tensor> out;
  const std::vector<Tensor> shape = {vec<int64_t>({1})};
  for (int64_t seed = 1; seed <= static_cast<int64_t>(kMaxRandomStreams) + 100; ++seed) {
    all_ok = all_ok && execute_eager("RandomUniform", shape, random_attrs(DType::kFloat32, seed, 1), &out).ok();
  }
  CHECK(all_ok);
  CHECK(num_random_streams() == kMaxRandomStreams);
  reset_random_streams();
  CHECK(num_random_streams() == 0);
}

TEST_CASE("random ops produce the requested shape, including empty ones", "[kernels][random]") {
  Tensor t = run1("RandomUniform", {vec<int32_t>({2, 0, 3})}, random_attrs(DType::kFloat32, 1, 1));
  CHECK(t.shape() == Shape({2, 0, 3}));
  Tensor s = run1("RandomStandardNormal", {Tensor(DType::kInt32, Shape{0})}, random_attrs(DType::kFloat64, 1, 1));
  CHECK(s.shape() == Shape());
  CHECK(s.dtype() == DType::kFloat64);
  // An empty output never checks the bounds (TF returns an empty tensor for minval >= maxval).
  AttrMap none;
  Tensor e = run1("RandomUniformInt", {vec<int32_t>({0}), scalar<int32_t>(3), scalar<int32_t>(1)}, none);
  CHECK(e.num_elements() == 0);
}

TEST_CASE("random ops reject bad shapes with TF's messages", "[kernels][random]") {
  const AttrMap a = random_attrs(DType::kFloat32, 1, 1);
  Status s = run_error("RandomUniform", {tensor<int32_t>({2}, Shape{1, 1})}, a);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(contains(s, "shape must be a vector of {int32,int64}, got shape [1,1] [Op:RandomUniform]"));
  CHECK(contains(run_error("RandomUniform", {scalar<int32_t>(2)}, a), "got shape []"));
  CHECK(contains(run_error("RandomStandardNormal", {vec<int32_t>({2, -1, -3})}, a), "Dimension -1 must be >= 0"));
  const int64_t big = int64_t{1} << 40;
  s = run_error("RandomUniform", {vec<int64_t>({big, big, -3})}, a);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(contains(s, "Shape [1099511627776,1099511627776,-3] would have more than 2**63 - 1 elements"));
  s = run_error("RandomUniform", {vec<int64_t>({int64_t{1} << 62})}, a);
  CHECK(s.code() == Code::kResourceExhausted);
  CHECK(contains(s, "OOM when allocating tensor with shape[4611686018427387904] and type float"));
  s = run_error("RandomUniform", {vec<float>({2})}, a);
  CHECK(contains(s, "Value for attr 'T' of float is not in the list of allowed values: int32, int64"));
  s = run_error("RandomUniform", {vec<int32_t>({2})}, random_attrs(DType::kInt32, 1, 1));
  CHECK(contains(s, "Value for attr 'dtype' of int32 is not in the list of allowed values: half, bfloat16, float, double"));
}

TEST_CASE("RandomUniformInt checks its bounds", "[kernels][random]") {
  AttrMap none;
  Status s = run_error("RandomUniformInt", {vec<int32_t>({2}), vec<int32_t>({1}), scalar<int32_t>(3)}, none);
  CHECK(contains(s, "minval must be 0-D, got shape [1] [Op:RandomUniformInt]"));
  // The bound shapes are checked before the output shape.
  s = run_error("RandomUniformInt", {vec<int32_t>({-1}), scalar<int32_t>(1), vec<int32_t>({3, 4})}, none);
  CHECK(contains(s, "maxval must be 0-D, got shape [2]"));
  s = run_error("RandomUniformInt", {vec<int32_t>({2}), scalar<int64_t>(5), scalar<int64_t>(5)}, none);
  CHECK(contains(s, "Need minval < maxval, got 5 >= 5 [Op:RandomUniformInt]"));
  s = run_error("RandomUniformInt", {vec<int32_t>({2}), scalar<int8_t>(1), scalar<int8_t>(3)}, none);
  CHECK(contains(s, "Value for attr 'Tout' of int8 is not in the list of allowed values: int32, int64"));
}
