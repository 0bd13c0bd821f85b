// The dtypes added after the first nine (float16, bfloat16, complex64/128, uint16/32/64): enum
// numbers, names and sizes as TF's, half-to-float conversion, Cast rules, kernels and .npy files.
// Expected values are TensorFlow 2.21's (and NumPy 2.4's bytes for .npy).
#include <Eigen/Core>
#include <complex>

#include "harness.h"

#include "graphfn/serialize/npy.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

AttrMap dst(DType dt) {
  AttrMap a;
  a.set("DstT", dt);
  return a;
}

}  // namespace

TEST_CASE("new dtypes carry TF's DataType numbers, names and sizes", "[core][dtypes]") {
  CHECK(static_cast<int>(DType::kComplex64) == 8);
  CHECK(static_cast<int>(DType::kBFloat16) == 14);
  CHECK(static_cast<int>(DType::kUInt16) == 17);
  CHECK(static_cast<int>(DType::kComplex128) == 18);
  CHECK(static_cast<int>(DType::kHalf) == 19);
  CHECK(static_cast<int>(DType::kUInt32) == 22);
  CHECK(static_cast<int>(DType::kUInt64) == 23);
  CHECK(kNumDTypes == 24);
  CHECK(std::string(dtype_name(DType::kHalf)) == "float16");
  CHECK(std::string(dtype_tf_string(DType::kHalf)) == "half");
  CHECK(std::string(dtype_tf_enum(DType::kBFloat16)) == "DT_BFLOAT16");
  CHECK(dtype_size(DType::kComplex128) == 16);
  CHECK(dtype_size(DType::kBFloat16) == 2);
  CHECK(dtype_size(DType::kUInt32) == 4);
  CHECK(is_floating(DType::kHalf));
  CHECK(is_complex(DType::kComplex64));
  CHECK(is_unsigned(DType::kUInt64));
  CHECK(real_dtype(DType::kComplex128) == DType::kFloat64);
  DType dt;
  REQUIRE(dtype_from_name("bfloat16", &dt));
  CHECK(dt == DType::kBFloat16);
}

TEST_CASE("half_bits_to_float reads float16 and bfloat16 bits exactly", "[core][dtypes]") {
  CHECK(half_bits_to_float(DType::kHalf, 0x3e00) == 1.5f);
  CHECK(half_bits_to_float(DType::kHalf, 0xc000) == -2.0f);
  CHECK(half_bits_to_float(DType::kHalf, 0x0001) == 5.9604644775390625e-08f);  // smallest subnormal
  CHECK(half_bits_to_float(DType::kHalf, 0x7bff) == 65504.0f);
  CHECK(std::isinf(half_bits_to_float(DType::kHalf, 0x7c00)));
  CHECK(half_bits_to_float(DType::kBFloat16, 0x3fc0) == 1.5f);
  for (int bits = 0; bits < 0x10000; ++bits) {  // agrees with Eigen on every value
    const float mine = half_bits_to_float(DType::kHalf, static_cast<uint16_t>(bits));
    const float eigen = static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(static_cast<uint16_t>(bits)));
    CHECK((mine == eigen || (mine != mine && eigen != eigen)));
  }
}

TEST_CASE("Cast wraps out-of-range floats as TF does on x86", "[kernels][dtypes]") {
  // TF 2.21: cast([300.7, -1.2], uint8) is [44, 255]; uint32 and uint64 go through int64.
  CHECK(values<uint8_t>(run1("Cast", {vec<float>({300.7f, -1.2f})}, dst(DType::kUInt8))) == std::vector<uint8_t>{44, 255});
  CHECK(values<uint16_t>(run1("Cast", {vec<float>({300.7f, -1.2f})}, dst(DType::kUInt16))) ==
        std::vector<uint16_t>{300, 65535});
  CHECK(values<uint64_t>(run1("Cast", {vec<double>({-1.0, 2e19})}, dst(DType::kUInt64))) ==
        std::vector<uint64_t>{18446744073709551615ull, 9223372036854775808ull});
  CHECK(values<int32_t>(run1("Cast", {vec<double>({1e10, -3.9})}, dst(DType::kInt32))) ==
        std::vector<int32_t>{INT32_MIN, -3});
  // complex -> real drops the imaginary part.
  CHECK(values<float>(run1("Cast", {vec<std::complex<float>>({{1.7f, 2.0f}})}, dst(DType::kFloat32))) ==
        std::vector<float>{1.7f});
  // float64 -> float16 rounds through float32 (twice), as Eigen and TF do: 1 + 2^-11 + 2^-40 -> 1.
  const Tensor h = run1("Cast", {vec<double>({1.0 + 0x1p-11 + 0x1p-40})}, dst(DType::kHalf));
  CHECK(half_bits_to_float(DType::kHalf, h.data<uint16_t>()[0]) == 1.0f);
}

TEST_CASE("float16 arithmetic rounds each op's float result", "[kernels][dtypes]") {
  const Tensor a = vec<Eigen::half>({Eigen::half(1.5f), Eigen::half(2.5f)});
  const Tensor b = vec<Eigen::half>({Eigen::half(0.1f), Eigen::half(0.3f)});
  const Tensor sum = run1("AddV2", {a, b});
  // TF 2.21: [1.6, 2.8] in float16, i.e. bits 0x3e66 and 0x419a.
  CHECK(sum.data<uint16_t>()[0] == 0x3e66);
  CHECK(sum.data<uint16_t>()[1] == 0x419a);
  const Tensor total = run1("Sum", {vec<Eigen::bfloat16>(std::vector<Eigen::bfloat16>(10000, Eigen::bfloat16(1.0f))),
                                    vec<int32_t>({0})});
  CHECK(static_cast<float>(total.data<Eigen::bfloat16>()[0]) == 9984.0f);  // float sum, rounded once
}

TEST_CASE("complex ops: Complex, Real, Imag, Angle, ComplexAbs, Conj", "[kernels][dtypes]") {
  AttrMap complex_attrs;
  complex_attrs.set("Tout", DType::kComplex64);
  const Tensor z = run1("Complex", {vec<float>({3, -1}), vec<float>({4, 2})}, complex_attrs);
  CHECK(values<std::complex<float>>(z) == std::vector<std::complex<float>>{{3, 4}, {-1, 2}});
  AttrMap real_attrs;
  real_attrs.set("Tout", DType::kFloat32);
  CHECK(values<float>(run1("ComplexAbs", {z}, real_attrs)) == std::vector<float>{5, std::sqrt(5.0f)});
  CHECK(values<float>(run1("Imag", {z}, real_attrs)) == std::vector<float>{4, 2});
  CHECK(values<std::complex<float>>(run1("Conj", {z})) == std::vector<std::complex<float>>{{3, -4}, {-1, -2}});
}

TEST_CASE("npy: the new dtypes read and write NumPy's bytes", "[serialize][dtypes]") {
  // np.save(f, np.array([1.5, -2], np.float16)) and the same as ml_dtypes.bfloat16 ('<V2').
  const std::string f16 = bytes_from_hex(
      "934e554d5059010076007b276465736372273a20273c6632272c2027666f727472616e5f6f72646572273a2046616c73652c"
      "20277368617065273a2028322c292c207d202020202020202020202020202020202020202020202020202020202020202020"
      "2020202020202020202020202020202020202020202020202020200a003e00c0");
  const std::string bf16 = bytes_from_hex(
      "934e554d5059010076007b276465736372273a20273c5632272c2027666f727472616e5f6f72646572273a2046616c73652c"
      "20277368617065273a2028322c292c207d202020202020202020202020202020202020202020202020202020202020202020"
      "2020202020202020202020202020202020202020202020202020200ac03f00c0");
  for (const auto& [bytes, dt] : {std::pair{f16, DType::kHalf}, std::pair{bf16, DType::kBFloat16}}) {
    Tensor t;
    REQUIRE(decode_npy(bytes, &t).ok());
    CHECK(t.dtype() == dt);
    CHECK(half_bits_to_float(dt, t.data<uint16_t>()[0]) == 1.5f);
    CHECK(half_bits_to_float(dt, t.data<uint16_t>()[1]) == -2.0f);
    std::string written;
    REQUIRE(encode_npy(t, &written).ok());
    CHECK(written == bytes);
  }
  const std::vector<Tensor> round_trips{vec<std::complex<float>>({{1, 2}}), vec<std::complex<double>>({{-1, 0.5}}),
                                        vec<uint16_t>({65535}), vec<uint32_t>({7}), vec<uint64_t>({1ull << 63})};
  for (const Tensor& t : round_trips) {
    std::string bytes;
    REQUIRE(encode_npy(t, &bytes).ok());
    Tensor back;
    REQUIRE(decode_npy(bytes, &back).ok());
    CHECK(back.dtype() == t.dtype());
    CHECK(back.debug_string() == t.debug_string());
  }
}
