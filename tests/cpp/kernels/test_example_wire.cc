// The Example wire reader of ParseExampleV2 (kernels/example_wire.h): TF's bytes read as TF's
// protobuf reads them, and mutated bytes read or fail cleanly (a small fuzzer).
#include <random>
#include <string>
#include <vector>

#include "harness.h"
#include "graphfn/kernels/example_wire.h"

using namespace graphfn;

namespace {

// TF 2.21: Example{a: float [1.5, 2.5], b: int64 [7], c: bytes [hi, yo], s: float [1, 2, 3, 4]}.
const std::string kE1 = testing::bytes_from_hex(
    "0a4b0a190a0173121412120a100000803f0000004000004040000080400a0f0a0163120a0a080a0268690a02796f0a0a0a016212051a030a01"
    "070a110a0161120c120a0a080000c03f00002040");

const FeatureView* find_feature(const std::vector<std::pair<std::string_view, FeatureView>>& fs, std::string_view key) {
  for (size_t i = fs.size(); i-- > 0;) {
    if (fs[i].first == key) return &fs[i].second;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("example wire: TF's bytes") {
  std::vector<std::pair<std::string_view, FeatureView>> fs;
  REQUIRE(parse_example_features(kE1, &fs));
  REQUIRE(fs.size() == 4);
  std::vector<float> floats;
  REQUIRE(feature_floats(*find_feature(fs, "s"), &floats));
  CHECK(floats == std::vector<float>{1, 2, 3, 4});
  std::vector<int64_t> ints;
  REQUIRE(feature_int64s(*find_feature(fs, "b"), &ints));
  CHECK(ints == std::vector<int64_t>{7});
  std::vector<std::string_view> bytes;
  REQUIRE(feature_bytes(*find_feature(fs, "c"), &bytes));
  CHECK(bytes == std::vector<std::string_view>{"hi", "yo"});
  CHECK(find_feature(fs, "a")->kind == FeatureView::kFloat);
  CHECK(parse_example_features("", &fs));  // an empty Example
  CHECK(fs.empty());
  CHECK_FALSE(parse_example_features("\x0a\x05" "abc", &fs));  // a length past the end
  // unpacked int64s (field 1, varint) read like packed ones; a negative int64 is 10 bytes
  FeatureView unpacked;
  unpacked.kind = FeatureView::kInt64;
  const std::string list = testing::bytes_from_hex("0805" "08ffffffffffffffffff01");
  unpacked.lists.push_back(list);
  REQUIRE(feature_int64s(unpacked, &ints));
  CHECK(ints == std::vector<int64_t>{5, -1});
}

TEST_CASE("example wire fuzz: mutated Examples parse or fail, never crash") {
  std::mt19937 rng(3);
  int parsed = 0;
  for (int run = 0; run < 5000; ++run) {
    std::string bytes = kE1;
    for (int e = 0, edits = 1 + static_cast<int>(rng() % 3); e < edits && !bytes.empty(); ++e) {
      const size_t at = rng() % bytes.size();
      switch (rng() % 3) {
        case 0: bytes[at] = static_cast<char>(bytes[at] ^ (1 << (rng() % 8))); break;
        case 1: bytes.resize(at); break;
        default: bytes.insert(at, 1, static_cast<char>(rng())); break;
      }
    }
    std::vector<std::pair<std::string_view, FeatureView>> fs;
    if (!parse_example_features(bytes, &fs)) continue;
    ++parsed;
    std::vector<float> floats;
    std::vector<int64_t> ints;
    std::vector<std::string_view> strs;
    for (const auto& [key, f] : fs) {
      (void)key;
      feature_floats(f, &floats);
      feature_int64s(f, &ints);
      feature_bytes(f, &strs);
    }
  }
  CHECK(parsed > 100);
}
