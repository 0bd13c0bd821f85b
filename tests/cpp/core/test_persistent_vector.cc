// PersistentVector: copies are independent values; writes, growth and shrinking keep every other
// element; a long run of writes each on a fresh copy stays cheap (a vector copy would take
// minutes at this size).
#include "harness.h"

#include <string>
#include <vector>

#include "graphfn/core/persistent_vector.h"

namespace graphfn {
namespace {

TEST_CASE("PersistentVector reads unset elements as T() and keeps writes", "[core][persistent_vector]") {
  PersistentVector<int> v;
  CHECK(v.empty());
  v.resize(5);
  REQUIRE(v.size() == 5);
  for (size_t i = 0; i < 5; ++i) CHECK(v[i] == 0);
  v.set(3, 7);
  CHECK(v[3] == 7);
  CHECK(v[2] == 0);
  CHECK(v[4] == 0);
}

TEST_CASE("PersistentVector copies do not see each other's writes", "[core][persistent_vector]") {
  PersistentVector<std::string> a;
  a.resize(100);
  for (size_t i = 0; i < 100; ++i) a.set(i, "a" + std::to_string(i));
  PersistentVector<std::string> b = a;
  b.set(40, "b40");
  PersistentVector<std::string> c = a;
  c.set(40, "c40");
  c.push_back("c100");
  CHECK(a[40] == "a40");
  CHECK(b[40] == "b40");
  CHECK(c[40] == "c40");
  CHECK(a.size() == 100);
  CHECK(b.size() == 100);
  CHECK(c.size() == 101);
  CHECK(c[100] == "c100");
  for (size_t i = 0; i < 100; ++i) {
    if (i != 40) {
      CHECK(a[i] == "a" + std::to_string(i));
      CHECK(b[i] == a[i]);
      CHECK(c[i] == a[i]);
    }
  }
}

TEST_CASE("PersistentVector grows across trie levels and shrinks", "[core][persistent_vector]") {
  PersistentVector<int> v;
  std::vector<int> expected;
  for (int i = 0; i < 40000; ++i) {  // past 32, 32^2 and 32^3 elements
    v.push_back(i * 3);
    expected.push_back(i * 3);
  }
  PersistentVector<int> before_growth = v;
  v.resize(100000);
  CHECK(v[39999] == 39999 * 3);
  CHECK(v[40000] == 0);
  CHECK(v[99999] == 0);
  v.set(99999, -1);
  CHECK(v[99999] == -1);
  CHECK(before_growth.size() == 40000);
  for (size_t i = 0; i < expected.size(); ++i) REQUIRE(before_growth[i] == expected[i]);
  v.resize(10);
  REQUIRE(v.size() == 10);
  v.resize(40000);
  CHECK(v[9] == 27);
  CHECK(v[10] == 0);  // dropped by the shrink, not resurrected by growing again
  CHECK(v[39999] == 0);
}

TEST_CASE("PersistentVector writes on fresh copies cost a path, not a copy", "[core][persistent_vector]") {
  // 100 000 versions, each a copy of the last with one more element set: what a TensorArray
  // written once per loop iteration does. With whole-vector copies this is 5e9 element copies.
  constexpr size_t n = 100000;
  PersistentVector<int> v;
  v.resize(n);
  std::vector<PersistentVector<int>> kept;
  for (size_t i = 0; i < n; ++i) {
    PersistentVector<int> next = v;
    next.set(i, static_cast<int>(i));
    if (i % 25000 == 0) kept.push_back(v);
    v = std::move(next);
  }
  for (size_t i = 0; i < n; i += 997) REQUIRE(v[i] == static_cast<int>(i));
  // Old versions still hold what they held: kept[k] was taken before element 25000*k was set.
  for (size_t k = 0; k < kept.size(); ++k) {
    CHECK(kept[k][k * 25000] == 0);
    if (k > 0) CHECK(kept[k][k * 25000 - 1] == static_cast<int>(k * 25000 - 1));
  }
}

}  // namespace
}  // namespace graphfn
