#include "harness.h"

#include <cmath>
#include <limits>
#include <string>

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("binary ops broadcast", "[kernels][cwise]") {
  Tensor a = tensor<float>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor b = vec<float>({10, 20, 30});
  CHECK(values<float>(run1("AddV2", {a, b})) == std::vector<float>{11, 22, 33, 14, 25, 36});
  Tensor col = tensor<float>({100, 200}, Shape{2, 1});
  Tensor z = run1("Sub", {a, col});
  CHECK(z.shape() == Shape({2, 3}));
  CHECK(values<float>(z) == std::vector<float>{-99, -98, -97, -196, -195, -194});
  Tensor outer = run1("Mul", {tensor<int32_t>({1, 2}, Shape{2, 1}), tensor<int32_t>({3, 4, 5}, Shape{1, 3})});
  CHECK(values<int32_t>(outer) == std::vector<int32_t>{3, 4, 5, 6, 8, 10});
  CHECK(values<float>(run1("Mul", {scalar<float>(2), a})) == std::vector<float>{2, 4, 6, 8, 10, 12});
}

TEST_CASE("incompatible broadcast is an InvalidArgument naming the op", "[kernels][cwise]") {
  Status s = run_error("AddV2", {vec<int32_t>({1, 2, 3}), vec<int32_t>({1, 2})});
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message().find("Incompatible shapes: [3] vs. [2] [Op:AddV2]") != std::string::npos);
}

TEST_CASE("floor division and modulo follow Python/TF semantics", "[kernels][cwise]") {
  Tensor x = vec<int32_t>({7, -7, 7, -7});
  Tensor y = vec<int32_t>({2, 2, -2, -2});
  CHECK(values<int32_t>(run1("FloorDiv", {x, y})) == std::vector<int32_t>{3, -4, -4, 3});
  CHECK(values<int32_t>(run1("FloorMod", {x, y})) == std::vector<int32_t>{1, 1, -1, -1});
  Tensor fx = vec<float>({7.5f, -7.5f});
  CHECK(values<float>(run1("FloorMod", {fx, scalar<float>(2)})) == std::vector<float>{1.5f, 0.5f});
  CHECK(values<float>(run1("FloorDiv", {fx, scalar<float>(2)})) == std::vector<float>{3, -4});
  // INT_MIN // -1 wraps instead of trapping.
  CHECK(values<int32_t>(run1("FloorDiv", {vec<int32_t>({std::numeric_limits<int32_t>::min()}), scalar<int32_t>(-1)}))[0] ==
        std::numeric_limits<int32_t>::min());
}

TEST_CASE("integer division by zero is an error", "[kernels][cwise]") {
  Status s = run_error("FloorDiv", {scalar<int32_t>(1), scalar<int32_t>(0)});
  CHECK(s.message().find("Integer division by zero") != std::string::npos);
  CHECK(run_error("FloorMod", {scalar<int64_t>(1), scalar<int64_t>(0)}).code() == Code::kInvalidArgument);
  // Float division by zero is IEEE.
  CHECK(std::isinf(values<float>(run1("RealDiv", {scalar<float>(1), scalar<float>(0)}))[0]));
}

TEST_CASE("pow", "[kernels][cwise]") {
  CHECK(values<int32_t>(run1("Pow", {vec<int32_t>({2, 3, -2}), scalar<int32_t>(3)})) == std::vector<int32_t>{8, 27, -8});
  CHECK(run_error("Pow", {scalar<int32_t>(2), scalar<int32_t>(-1)}).message().find(
            "Integers to negative integer powers are not allowed") != std::string::npos);
  CHECK(values<double>(run1("Pow", {scalar<double>(2), scalar<double>(0.5)}))[0] == Approx(std::sqrt(2.0)));
}

TEST_CASE("integer arithmetic wraps", "[kernels][cwise]") {
  CHECK(values<uint8_t>(run1("Sub", {scalar<uint8_t>(1), scalar<uint8_t>(2)}))[0] == 255);
  CHECK(values<int32_t>(run1("AddV2", {scalar<int32_t>(std::numeric_limits<int32_t>::max()), scalar<int32_t>(1)}))[0] ==
        std::numeric_limits<int32_t>::min());
  CHECK(values<int8_t>(run1("Neg", {scalar<int8_t>(-128)}))[0] == -128);
}

TEST_CASE("maximum and minimum propagate NaN", "[kernels][cwise]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto mx = values<float>(run1("Maximum", {vec<float>({1, nan, 3}), vec<float>({2, 0, nan})}));
  CHECK(mx[0] == 2);
  CHECK(std::isnan(mx[1]));
  CHECK(std::isnan(mx[2]));
  CHECK(values<int64_t>(run1("Minimum", {vec<int64_t>({5, -5}), scalar<int64_t>(0)})) == std::vector<int64_t>{0, -5});
}

TEST_CASE("comparisons and logic produce bool", "[kernels][cwise]") {
  Tensor x = vec<int32_t>({1, 2, 3});
  CHECK(values<bool>(run1("Less", {x, scalar<int32_t>(2)})) == std::vector<bool>{true, false, false});
  CHECK(values<bool>(run1("GreaterEqual", {x, scalar<int32_t>(2)})) == std::vector<bool>{false, true, true});
  CHECK(values<bool>(run1("Equal", {x, vec<int32_t>({1, 0, 3})})) == std::vector<bool>{true, false, true});
  CHECK(values<bool>(run1("NotEqual", {x, vec<int32_t>({1, 0, 3})})) == std::vector<bool>{false, true, false});
  Tensor p = vec<bool>({true, true, false, false}), q = vec<bool>({true, false, true, false});
  CHECK(values<bool>(run1("LogicalAnd", {p, q})) == std::vector<bool>{true, false, false, false});
  CHECK(values<bool>(run1("LogicalOr", {p, q})) == std::vector<bool>{true, true, true, false});
  CHECK(values<bool>(run1("LogicalNot", {p})) == std::vector<bool>{false, false, true, true});
}

TEST_CASE("string concatenation and equality", "[kernels][cwise]") {
  Tensor a(DType::kString, Shape{2});
  a.data<std::string>()[0] = "a";
  a.data<std::string>()[1] = "b";
  Tensor suffix = Tensor::scalar<std::string>("x");
  Tensor z = run1("Add", {a, suffix});  // TF concatenates with Add (AddV2 has no string kernel)
  CHECK(z.data<std::string>()[0] == "ax");
  CHECK(z.data<std::string>()[1] == "bx");
  CHECK(values<bool>(run1("Equal", {a, Tensor::scalar<std::string>("b")})) == std::vector<bool>{false, true});
}

TEST_CASE("unary float functions match <cmath>", "[kernels][cwise]") {
  const std::vector<double> xs = {-2.0, -0.5, 0.0, 0.5, 3.0};
  Tensor x = vec<double>(xs);
  auto tanh = values<double>(run1("Tanh", {x}));
  auto sig = values<double>(run1("Sigmoid", {x}));
  auto exp = values<double>(run1("Exp", {x}));
  auto relu = values<double>(run1("Relu", {x}));
  auto sign = values<double>(run1("Sign", {x}));
  for (size_t i = 0; i < xs.size(); ++i) {
    CHECK(tanh[i] == Approx(std::tanh(xs[i])));
    CHECK(sig[i] == Approx(1.0 / (1.0 + std::exp(-xs[i]))));
    CHECK(exp[i] == Approx(std::exp(xs[i])));
    CHECK(relu[i] == std::max(xs[i], 0.0));
    CHECK(sign[i] == (xs[i] > 0) - (xs[i] < 0));
  }
  auto sq = values<float>(run1("Sqrt", {vec<float>({4, 9})}));
  CHECK(sq == std::vector<float>{2, 3});
  CHECK(values<float>(run1("Log", {vec<float>({1})}))[0] == 0);
}

TEST_CASE("unary integer functions", "[kernels][cwise]") {
  Tensor x = vec<int32_t>({-3, 0, 4});
  CHECK(values<int32_t>(run1("Abs", {x})) == std::vector<int32_t>{3, 0, 4});
  CHECK(values<int32_t>(run1("Neg", {x})) == std::vector<int32_t>{3, 0, -4});
  CHECK(values<int32_t>(run1("Square", {x})) == std::vector<int32_t>{9, 0, 16});
  CHECK(values<int32_t>(run1("Sign", {x})) == std::vector<int32_t>{-1, 0, 1});
  CHECK(values<int32_t>(run1("Relu", {x})) == std::vector<int32_t>{0, 0, 4});
}

TEST_CASE("cast converts between numeric types and bool", "[kernels][cast]") {
  AttrMap to_int;
  to_int.set("DstT", DType::kInt32);
  CHECK(values<int32_t>(run1("Cast", {vec<float>({1.7f, -1.7f, 0.f})}, to_int)) == std::vector<int32_t>{1, -1, 0});
  AttrMap to_bool;
  to_bool.set("DstT", DType::kBool);
  CHECK(values<bool>(run1("Cast", {vec<float>({0.f, 2.f})}, to_bool)) == std::vector<bool>{false, true});
  AttrMap to_double;
  to_double.set("DstT", DType::kFloat64);
  CHECK(values<double>(run1("Cast", {vec<bool>({true, false})}, to_double)) == std::vector<double>{1, 0});
  Tensor s = Tensor::scalar<std::string>("a");
  CHECK(run_error("Cast", {s}, to_int).code() == Code::kUnimplemented);
}

TEST_CASE("16-bit multiplication wraps without signed overflow", "[kernels][cwise]") {
  // -1 * -1 as uint16 is 65535 * 65535, which overflows int if promoted to it.
  CHECK(values<int16_t>(run1("Mul", {scalar<int16_t>(-1), scalar<int16_t>(-1)}))[0] == 1);
  CHECK(values<int16_t>(run1("Square", {scalar<int16_t>(-32768)}))[0] == 0);
  CHECK(values<int16_t>(run1("Mul", {scalar<int16_t>(300), scalar<int16_t>(300)}))[0] == 24464);
}
