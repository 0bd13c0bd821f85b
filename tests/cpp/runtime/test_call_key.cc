#include "harness.h"

#include <cmath>
#include <unordered_map>

#include "graphfn/runtime/call_key.h"

using namespace graphfn;

TEST_CASE("tensor parts compare dtype and exact shape", "[runtime][call_key]") {
  CallKey a, b, c, d;
  a.add_tensor(DType::kInt32, Shape{3});
  b.add_tensor(DType::kInt32, Shape{3});
  c.add_tensor(DType::kInt32, Shape{4});
  d.add_tensor(DType::kFloat32, Shape{3});
  CHECK(a == b);
  CHECK(a.hash() == b.hash());
  CHECK_FALSE(a == c);
  CHECK_FALSE(a == d);
}

TEST_CASE("numbers are keyed by value like TF's Literal: 1, 1.0 and True agree", "[runtime][call_key]") {
  CallKey one_int, one_float, other;
  one_int.add_int(1);
  one_float.add_float(1.0);
  other.add_int(2);
  CHECK(one_int == one_float);
  CHECK(one_int.hash() == one_float.hash());
  CHECK_FALSE(one_int == other);
  CallKey nan1, nan2;
  nan1.add_float(std::nan(""));
  nan2.add_float(std::nan(""));
  CHECK(nan1 == nan2);
  CallKey big1, big2;
  big1.add_int((int64_t(1) << 60) + 1);
  big2.add_int((int64_t(1) << 60));
  CHECK_FALSE(big1 == big2);
}

TEST_CASE("strings, bytes and None are distinct kinds", "[runtime][call_key]") {
  CallKey s, b, n;
  s.add_string("a", false);
  b.add_string("a", true);
  n.add_none();
  CHECK_FALSE(s == b);
  CHECK_FALSE(s == n);
  std::unordered_map<CallKey, int, CallKeyHash> map;
  map[s] = 1;
  map[b] = 2;
  CHECK(map.size() == 2);
  CallKey s2;
  s2.add_string("a", false);
  CHECK(map.at(s2) == 1);
}
