#include "harness.h"

#include <limits>
#include <string>

using namespace graphfn;
using namespace graphfn::testing;

namespace {

// Reference product by the definition, in double, for small exact values.
template <typename T>
std::vector<T> reference(const std::vector<T>& a, const std::vector<T>& b, int64_t m, int64_t k,
                         int64_t n, bool ta = false, bool tb = false) {
  std::vector<T> c(m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) {
        s += double(ta ? a[p * m + i] : a[i * k + p]) * double(tb ? b[j * k + p] : b[p * n + j]);
      }
      c[i * n + j] = static_cast<T>(s);
    }
  }
  return c;
}

template <typename T>
std::vector<T> iota(int64_t n, int mod = 7) {
  std::vector<T> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<T>(i % mod - mod / 2);
  return v;
}

AttrMap attrs2(const char* name_a, bool a, const char* name_b, bool b) {
  AttrMap m;
  m.set(name_a, a);
  m.set(name_b, b);
  return m;
}


}  // namespace

TEMPLATE_TEST_CASE("MatMul matches the definition for every transpose combination", "[kernels][matmul]",
                   float, double, int32_t, int64_t) {
  // Sizes on both sides of the Eigen GEMM threshold.
  for (int64_t size : {1, 3, 10, 64}) {
    const int64_t m = size, k = size + 1, n = size + 2;
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        auto a = iota<TestType>(m * k), b = iota<TestType>(k * n, 5);
        Tensor ta_t = tensor(a, ta ? Shape{k, m} : Shape{m, k});
        Tensor tb_t = tensor(b, tb ? Shape{n, k} : Shape{k, n});
        Tensor c = run1("MatMul", {ta_t, tb_t}, attrs2("transpose_a", ta, "transpose_b", tb));
        CHECK(c.shape() == Shape({m, n}));
        CHECK(values<TestType>(c) == reference(a, b, m, k, n, ta, tb));
      }
    }
  }
}

TEST_CASE("MatMul with an empty inner dimension gives zeros", "[kernels][matmul]") {
  Tensor c = run1("MatMul", {Tensor(DType::kFloat32, Shape{2, 0}), Tensor(DType::kFloat32, Shape{0, 3})});
  CHECK(values<float>(c) == std::vector<float>(6, 0.f));
  CHECK(run1("MatMul", {Tensor(DType::kInt32, Shape{0, 4}), tensor<int32_t>(iota<int32_t>(12), Shape{4, 3})})
            .shape() == Shape({0, 3}));
}

TEST_CASE("integer MatMul wraps on overflow", "[kernels][matmul]") {
  const int32_t big = std::numeric_limits<int32_t>::max();
  Tensor c = run1("MatMul", {tensor<int32_t>({big, 1}, Shape{1, 2}), tensor<int32_t>({2, 0}, Shape{2, 1})});
  CHECK(values<int32_t>(c) == std::vector<int32_t>{-2});
}

TEST_CASE("MatMul errors carry TF's messages", "[kernels][matmul]") {
  Tensor a = Tensor(DType::kFloat32, Shape{1, 2});
  CHECK(message(run_error("MatMul", {a, a})).find("Matrix size-incompatible: In[0]: [1,2], In[1]: [1,2] [Op:MatMul]") !=
        std::string::npos);
  CHECK(message(run_error("MatMul", {Tensor(DType::kFloat32, Shape{3}), a}))
            .find("In[0] and In[1] has different ndims: [3] vs. [1,2]") != std::string::npos);
  Tensor r3 = Tensor(DType::kFloat32, Shape{1, 1, 1});
  CHECK(message(run_error("MatMul", {r3, r3})).find("In[0] and In[1] ndims must be == 2: 3") != std::string::npos);
  Tensor i8 = Tensor(DType::kInt8, Shape{1, 1});
  CHECK(message(run_error("MatMul", {i8, i8})).find("Value for attr 'T' of int8 is not in the list") != std::string::npos);
  Tensor u8 = Tensor(DType::kUInt8, Shape{1, 1});
  Status s = run_error("MatMul", {u8, u8});
  CHECK(s.code() == Code::kNotFound);
  CHECK(s.message().find("Could not find device for node: {{node MatMul}} = MatMul[T=DT_UINT8]") != std::string::npos);
}

TEST_CASE("MatMul refuses outputs too large to allocate", "[kernels][matmul]") {
  const int64_t huge = int64_t(1) << 35;
  Status s = run_error("MatMul", {Tensor(DType::kFloat32, Shape{huge, 0}), Tensor(DType::kFloat32, Shape{0, huge})});
  CHECK(s.code() == Code::kResourceExhausted);
}

TEST_CASE("BatchMatMulV2 broadcasts batch dimensions", "[kernels][matmul]") {
  // x: [3, 1, 2, 4], y: [5, 4, 3] -> [3, 5, 2, 3]
  auto x = iota<float>(3 * 2 * 4), y = iota<float>(5 * 4 * 3, 5);
  AttrMap adj = attrs2("adj_x", false, "adj_y", false);
  Tensor out = run1("BatchMatMulV2", {tensor(x, Shape{3, 1, 2, 4}), tensor(y, Shape{5, 4, 3})}, adj);
  REQUIRE(out.shape() == Shape({3, 5, 2, 3}));
  auto got = values<float>(out);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 5; ++j) {
      std::vector<float> xa(x.begin() + i * 8, x.begin() + i * 8 + 8);
      std::vector<float> yb(y.begin() + j * 12, y.begin() + j * 12 + 12);
      std::vector<float> want = reference(xa, yb, 2, 4, 3);
      CHECK(std::vector<float>(got.begin() + (i * 5 + j) * 6, got.begin() + (i * 5 + j) * 6 + 6) == want);
    }
  }
  // A rank-2 operand broadcasts against every batch; adjoints transpose the matrices.
  auto w = iota<int64_t>(4 * 2);
  Tensor o2 = run1("BatchMatMulV2", {tensor(w, Shape{4, 2}), tensor(iota<int64_t>(2 * 4 * 3, 5), Shape{2, 4, 3})},
                   attrs2("adj_x", true, "adj_y", false));
  CHECK(o2.shape() == Shape({2, 2, 3}));
  auto y64 = iota<int64_t>(2 * 4 * 3, 5);
  std::vector<int64_t> first = reference(w, std::vector<int64_t>(y64.begin(), y64.begin() + 12), 2, 4, 3, true);
  const std::vector<int64_t> got2 = values<int64_t>(o2);
  CHECK(std::vector<int64_t>(got2.begin(), got2.begin() + 6) == first);
}

TEST_CASE("BatchMatMulV2 int16 wraps without undefined behaviour", "[kernels][matmul]") {
  Tensor x = tensor<int16_t>({-1, 300}, Shape{1, 1, 2});
  Tensor y = tensor<int16_t>({-1, 300}, Shape{1, 2, 1});
  // 1 + 90000 = 90001 -> 90001 - 65536 = 24465
  CHECK(values<int16_t>(run1("BatchMatMulV2", {x, y})) == std::vector<int16_t>{24465});
}

TEST_CASE("BatchMatMul errors carry TF's messages", "[kernels][matmul]") {
  auto msg = [](std::vector<Tensor> in) { return message(run_error("BatchMatMulV2", in)); };
  CHECK(msg({Tensor(DType::kFloat32, Shape{3}), Tensor(DType::kFloat32, Shape{3, 1})}).find("In[0] ndims must be >= 2: 1") !=
        std::string::npos);
  CHECK(msg({Tensor(DType::kFloat32, Shape{3, 1}), Tensor(DType::kFloat32, Shape{})}).find("In[1] ndims must be >= 2: 0") !=
        std::string::npos);
  CHECK(msg({Tensor(DType::kFloat32, Shape{2, 2, 3}), Tensor(DType::kFloat32, Shape{3, 3, 4})})
            .find("In[0] and In[1] must have compatible batch dimensions: [2,2,3] vs. [3,3,4]") != std::string::npos);
  CHECK(msg({Tensor(DType::kFloat32, Shape{2, 1, 2}), Tensor(DType::kFloat32, Shape{2, 1, 2})})
            .find("Matrix size-incompatible: In[0]: [2,1,2], In[1]: [2,1,2] [Op:BatchMatMulV2]") != std::string::npos);
}

TEST_CASE("BatchMatMulV3 mixes (u)int8 inputs into int32", "[kernels][matmul]") {
  AttrMap to_int32;
  to_int32.set("Tout", DType::kInt32);
  Tensor x = tensor<int8_t>({-128, 2}, Shape{1, 2});
  Tensor y = tensor<uint8_t>({255, 3}, Shape{2, 1});
  CHECK(values<int32_t>(run1("BatchMatMulV3", {x, y}, to_int32)) == std::vector<int32_t>{-32640 + 6});
  CHECK(values<int32_t>(run1("BatchMatMulV3", {x, tensor<int8_t>({1, 1}, Shape{2, 1})}, to_int32)) ==
        std::vector<int32_t>{-126});
  AttrMap to_float;
  to_float.set("Tout", DType::kFloat32);
  Tensor f = tensor<float>({1, 2, 3, 4}, Shape{2, 2});
  CHECK(values<float>(run1("BatchMatMulV3", {f, f}, to_float)) == std::vector<float>{7, 10, 15, 22});
  AttrMap to_double;
  to_double.set("Tout", DType::kFloat64);
  Status s = run_error("BatchMatMulV3", {f, f}, to_double);
  CHECK(s.code() == Code::kNotFound);
  CHECK(s.message().find("BatchMatMulV3[Ta=DT_FLOAT, Tb=DT_FLOAT, Tout=DT_DOUBLE]") != std::string::npos);
  CHECK(run_error("BatchMatMulV3", {x, tensor<int32_t>({1, 1}, Shape{2, 1})}, to_int32).code() == Code::kNotFound);
}

TEST_CASE("a dtype without a kernel is reported before shape errors", "[kernels][matmul]") {
  // TF 2.21: NotFound for uint8 MatMul even when the shapes do not match.
  Tensor u8 = Tensor(DType::kUInt8, Shape{2, 3});
  CHECK(run_error("MatMul", {u8, u8}).code() == Code::kNotFound);
}

TEST_CASE("attr and kernel errors come before input dtype mismatches", "[kernels][matmul]") {
  // TF 2.21 order: disallowed attr value, then missing kernel, then mismatched input.
  Tensor i8 = Tensor(DType::kInt8, Shape{1, 1}), f = Tensor(DType::kFloat32, Shape{1, 1});
  CHECK(run_error("MatMul", {i8, f}).message().find("Value for attr 'T' of int8") != std::string::npos);
  CHECK(run_error("MatMul", {Tensor(DType::kUInt8, Shape{1, 1}), f}).code() == Code::kNotFound);
  CHECK(run_error("MatMul", {f, i8}).message().find("cannot compute MatMul as input #1") != std::string::npos);
}

TEST_CASE("SparseMatMul leaves out terms whose sparse factor is zero", "[kernels][matmul]") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  AttrMap a_sparse;
  a_sparse.set("a_is_sparse", true);
  // Dense: 0 * NaN + 1 * 1 = NaN; with a sparse, the 0 term is skipped.
  Tensor a = tensor<float>({0, 1}, Shape{1, 2});
  CHECK(values<float>(run1("SparseMatMul", {a, tensor<float>({nan, 1}, Shape{2, 1})}, a_sparse)) == std::vector<float>{1});
  CHECK(std::isnan(values<float>(run1("MatMul", {a, tensor<float>({nan, 1}, Shape{2, 1})}))[0]));
  AttrMap b_sparse;
  b_sparse.set("b_is_sparse", true);
  CHECK(values<float>(run1("SparseMatMul", {tensor<float>({inf, 1}, Shape{1, 2}), tensor<float>({0, 2}, Shape{2, 1})},
                           b_sparse)) == std::vector<float>{2});
  AttrMap t;
  t.set("transpose_a", true);
  t.set("a_is_sparse", true);
  auto x = std::vector<float>{1, 0, 2, 3, 0, 4};  // [3, 2], used transposed
  CHECK(values<float>(run1("SparseMatMul", {tensor(x, Shape{3, 2}), tensor<float>({1, 1, 1}, Shape{3, 1})}, t)) ==
        std::vector<float>{3, 7});
  CHECK(run_error("SparseMatMul", {Tensor(DType::kFloat32, Shape{3}), a}).message().find("a is not a matrix") !=
        std::string::npos);
  CHECK(run_error("SparseMatMul", {a, Tensor(DType::kFloat32, Shape{2, 1, 1})}).message().find("b is not a matrix") !=
        std::string::npos);
  CHECK(run_error("SparseMatMul", {a, a}).message().find("Matrix size incompatible: a: [1,2], b: [1,2]") !=
        std::string::npos);
}
