// The TFRecord reader (plain, ZLIB, GZIP) and the Example wire reader on mutated inputs, built on its
// own with AddressSanitizer + UBSan in a minute (no full sanitizer build needed; docs/fuzzing.md):
//
//   g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -DGRAPHFN_HAVE_ZLIB \
//     -Icpp tests/cpp/fuzz/main/fuzz_record_io.cc cpp/graphfn/kernels/{record_io,crc32c,example_wire}.cc \
//     cpp/graphfn/core/status.cc -lz -o /tmp/fuzz_record_io && /tmp/fuzz_record_io 300000
//
// Prints the outcomes (status codes); any memory error or undefined behaviour stops the run.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>
#include "graphfn/kernels/crc32c.h"
#include "graphfn/kernels/example_wire.h"
#include "graphfn/kernels/record_io.h"
using namespace graphfn;
static std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}
int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 200000;
  std::vector<std::pair<std::string, RecordCompression>> corpus = {
      {from_hex("0500000000000000eab2043e68656c6c6fbb1f1c19000000000000000029039807d8ea82a2"), RecordCompression::kNone},
      {from_hex("789c63658080579b58ec32527372f277cbcb48b2220996e717e5a4e8fac92f0500bbf10a51"), RecordCompression::kZlib},
      {from_hex("1f8b080000000000000363658080579b58ec32527372f277cbcb48b2220996e717e5a4e8fac92f0500f49812152a000000"), RecordCompression::kGzip}};
  const std::string e1 = from_hex("0a4b0a190a0173121412120a100000803f0000004000004040000080400a0f0a0163120a0a080a0268690a02796f0a0a0a016212051a030a01070a110a0161120c120a0a080000c03f00002040");
  std::mt19937 rng(11);
  std::map<int, int> codes;
  int parsed = 0;
  for (int run = 0; run < runs; ++run) {
    auto [bytes, kind] = corpus[rng() % corpus.size()];
    std::string ex = e1;
    for (std::string* s : {&bytes, &ex}) {
      for (int e = 0, n = 1 + rng() % 4; e < n && !s->empty(); ++e) {
        const size_t at = rng() % s->size();
        switch (rng() % 4) {
          case 0: (*s)[at] ^= static_cast<char>(1 << (rng() % 8)); break;
          case 1: s->resize(at); break;
          case 2: s->insert(at, 1, static_cast<char>(rng())); break;
          default: (*s)[at] = static_cast<char>(rng()); break;
        }
      }
    }
    RecordReader reader(string_source(bytes), kind);
    std::string rec;
    Status st;
    while ((st = reader.read(&rec)).ok()) {}
    ++codes[static_cast<int>(st.code())];
    std::vector<std::pair<std::string_view, FeatureView>> fs;
    if (parse_example_features(ex, &fs)) {
      ++parsed;
      std::vector<float> f; std::vector<int64_t> i; std::vector<std::string_view> b;
      for (auto& [k, v] : fs) { feature_floats(v, &f); feature_int64s(v, &i); feature_bytes(v, &b); }
    }
    utf8_or_escaped(ex);
  }
  std::printf("%d runs, examples parsed %d;", runs, parsed);
  for (auto [c, n] : codes) std::printf(" code %d: %d", c, n);
  std::printf("\n");
}
