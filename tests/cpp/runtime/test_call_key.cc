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

TEST_CASE("containers are keyed by kind, length and elements", "[runtime][call_key]") {
  auto pair = [](bool is_tuple, int64_t a, int64_t b) {
    CallKey k;
    k.begin_sequence(is_tuple, 2);
    k.add_int(a);
    k.add_int(b);
    return k;
  };
  CHECK(pair(true, 1, 2) == pair(true, 1, 2));
  CHECK_FALSE(pair(true, 1, 2) == pair(false, 1, 2));
  CHECK_FALSE(pair(true, 1, 2) == pair(true, 2, 1));
  // A one-element list holding a two-element list differs from a two-element list.
  CallKey nested;
  nested.begin_sequence(false, 1);
  nested.begin_sequence(false, 2);
  nested.add_int(1);
  nested.add_int(2);
  CHECK_FALSE(nested == pair(false, 1, 2));
  CallKey d1, d2;
  d1.begin_dict(1);
  d1.add_string("a", false);
  d1.add_none();
  d2.begin_dict(1);
  d2.add_string("b", false);
  d2.add_none();
  CHECK_FALSE(d1 == d2);
}

TEST_CASE("variables are keyed by dtype, declared shape, trainable and alias", "[runtime][call_key]") {
  auto var = [](DType dt, const Shape& s, bool trainable, int alias) {
    CallKey k;
    k.add_variable(dt, s, trainable, alias);
    return k;
  };
  CHECK(var(DType::kFloat32, Shape{2}, true, 0) == var(DType::kFloat32, Shape{2}, true, 0));
  CHECK_FALSE(var(DType::kFloat32, Shape{2}, true, 0) == var(DType::kFloat32, Shape{2}, true, 1));
  CHECK_FALSE(var(DType::kFloat32, Shape{2}, true, 0) == var(DType::kFloat32, Shape{2}, false, 0));
  CHECK_FALSE(var(DType::kFloat32, Shape{2}, true, 0) == var(DType::kFloat32, Shape::unknown_rank(), true, 0));
  CHECK_FALSE(var(DType::kFloat32, Shape{}, true, 0) == var(DType::kFloat32, Shape::unknown_rank(), true, 0));
  // A variable differs from a tensor of its dtype and shape.
  CallKey t;
  t.add_tensor(DType::kFloat32, Shape{2});
  CHECK_FALSE(t == var(DType::kFloat32, Shape{2}, true, 0));
}

namespace {
class IntKey : public OpaqueKey {
 public:
  explicit IntKey(int v) : v_(v) {}
  size_t hash() const override { return static_cast<size_t>(v_); }
  bool equals(const OpaqueKey& o) const override {
    auto* k = dynamic_cast<const IntKey*>(&o);
    return k && k->v_ == v_;
  }

 private:
  int v_;
};
}  // namespace

TEST_CASE("opaque parts compare with their own equality", "[runtime][call_key]") {
  CallKey a, b, c;
  a.add_opaque(std::make_shared<IntKey>(7));
  b.add_opaque(std::make_shared<IntKey>(7));
  c.add_opaque(std::make_shared<IntKey>(8));
  CHECK(a == b);
  CHECK(a.hash() == b.hash());
  CHECK_FALSE(a == c);
  a.clear();
  CHECK(a.empty());
}
