// Test helpers: build tensors from values, run one op eagerly, compare results.
//
//   Tensor z = run1("AddV2", {vec<float>({1, 2}), scalar<float>(3)});
//   CHECK(values<float>(z) == std::vector<float>{4, 5});
#pragma once
#ifdef GRAPHFN_CATCH3
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif

#include <string>
#include <vector>

#include "graphfn/kernels/eager.h"

namespace graphfn {
namespace testing {

template <typename T>
Tensor scalar(T v) { return Tensor::scalar<T>(v); }

template <typename T>
Tensor tensor(const std::vector<T>& values, Shape shape) {
  Tensor t(DTypeOf<T>::value, std::move(shape));
  REQUIRE(t.num_elements() == static_cast<int64_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) t.data<T>()[i] = values[i];
  return t;
}

template <typename T>
Tensor vec(const std::vector<T>& values) {
  return tensor(values, Shape{static_cast<int64_t>(values.size())});
}

template <typename T>
std::vector<T> values(const Tensor& t) {
  REQUIRE(t.dtype() == DTypeOf<T>::value);
  return std::vector<T>(t.data<T>(), t.data<T>() + t.num_elements());
}

// Whether an error's message contains `text`, and the message itself (for CHECK output).
inline bool contains(const Status& s, const std::string& text) { return s.message().find(text) != std::string::npos; }
inline std::string message(const Status& s) { return s.message(); }
// Bytes from hex digits ("0a1b" -> "\x0a\x1b"): file fixtures written out in a test.
inline std::string bytes_from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

// Runs an op that must succeed and returns its outputs.
inline std::vector<Tensor> run(const std::string& op, const std::vector<Tensor>& inputs,
                               const AttrMap& attrs = AttrMap()) {
  std::vector<Tensor> out;
  Status s = execute_eager(op, inputs, attrs, &out);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return out;
}

inline Tensor run1(const std::string& op, const std::vector<Tensor>& inputs,
                   const AttrMap& attrs = AttrMap()) {
  auto out = run(op, inputs, attrs);
  REQUIRE(out.size() == 1);
  return out[0];
}

// Runs an op that must fail, returning the Status.
inline Status run_error(const std::string& op, const std::vector<Tensor>& inputs,
                        const AttrMap& attrs = AttrMap()) {
  std::vector<Tensor> out;
  Status s = execute_eager(op, inputs, attrs, &out);
  REQUIRE_FALSE(s.ok());
  return s;
}

}  // namespace testing
}  // namespace graphfn
