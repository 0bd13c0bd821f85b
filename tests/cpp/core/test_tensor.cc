#include "harness.h"

#include <string>
#include <vector>

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("tensor buffers are aligned and shared on copy", "[core][tensor]") {
  Tensor big(DType::kFloat32, Shape{100});
  CHECK(reinterpret_cast<uintptr_t>(big.raw_data()) % Buffer::kAlignment == 0);
  Tensor a(DType::kFloat32, Shape{3, 5});  // 60 bytes: stored inline
  CHECK(reinterpret_cast<uintptr_t>(a.raw_data()) % Buffer::kAlignment == 0);
  // Inline data is as aligned as heap data wherever the buffer object lands (Eigen's vector loops
  // would otherwise compute a varying head of elements with their scalar form).
  std::vector<Tensor> small;
  for (int i = 0; i < 64; ++i) {
    small.emplace_back(DType::kFloat32, Shape{1 + i % 16});
    CHECK(reinterpret_cast<uintptr_t>(small.back().raw_data()) % Buffer::kAlignment == 0);
  }
  CHECK(a.num_elements() == 15);
  CHECK(a.bytes() == 60);
  Tensor b = a;
  CHECK(b.raw_data() == a.raw_data());
  CHECK(a.buffer().use_count() == 2);
  Tensor c = a.copy();
  CHECK(c.raw_data() != a.raw_data());
}

TEST_CASE("string tensors own their strings", "[core][tensor]") {
  Tensor s(DType::kString, Shape{2});
  s.data<std::string>()[0] = "hello";
  s.data<std::string>()[1] = std::string(1000, 'x');  // heap-allocated: ASan checks the destructor
  Tensor copy = s.copy();
  s = Tensor();
  CHECK(copy.data<std::string>()[0] == "hello");
  CHECK(copy.data<std::string>()[1].size() == 1000);
}

TEST_CASE("Tensor::make refuses absurd sizes instead of crashing", "[core][tensor]") {
  Tensor t;
  Status s = Tensor::make(DType::kFloat64, Shape{int64_t(1) << 40, 1 << 20}, &t);
  CHECK(s.code() == Code::kResourceExhausted);
}

TEST_CASE("dtype names and sizes match TensorFlow", "[core][dtype]") {
  CHECK(std::string(dtype_name(DType::kFloat32)) == "float32");
  CHECK(std::string(dtype_tf_string(DType::kFloat32)) == "float");
  CHECK(std::string(dtype_tf_enum(DType::kInt64)) == "DT_INT64");
  CHECK(static_cast<int>(DType::kBool) == 10);  // TF's DataType number
  CHECK(dtype_size(DType::kFloat64) == 8);
  DType dt;
  REQUIRE(dtype_from_name("uint8", &dt));
  CHECK(dt == DType::kUInt8);
  CHECK_FALSE(dtype_from_name("variant", &dt));  // TF's, but graphfn has no such tensors
}
