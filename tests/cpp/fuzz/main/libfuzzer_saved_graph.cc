// graphfn_libfuzzer_saved: the saved-graph reader under libFuzzer (clang's coverage-guided engine),
// with the structure-aware mutations of structure_mutator.h as its custom mutator, so inputs keep
// a valid CRC and reach the graph reader. Built only with clang (tests/cpp/CMakeLists.txt):
//
//   cmake -S . -B build/libfuzzer -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DGRAPHFN_LIBFUZZER=ON \
//     -DGRAPHFN_SANITIZE=ON -DGRAPHFN_BUILD_PYTHON=OFF -DGRAPHFN_BUILD_TESTS=ON
//   ninja -C build/libfuzzer graphfn_libfuzzer_saved
//   mkdir -p /tmp/gfn-corpus && ./build/libfuzzer/tests/cpp/graphfn_libfuzzer_saved /tmp/gfn-corpus -runs=100000
//
// An empty corpus is fine: inputs that are not saved graphs are replaced by the sample files.
#include <cstdint>
#include <cstring>
#include <random>

#include "fuzz/saved_graph_fuzzer.h"
#include "graphfn/runtime/builtin_ops.h"
#include "graphfn/serialize/byte_io.h"
#include "graphfn/serialize/saved_graph.h"

using namespace graphfn;
using namespace graphfn::testing;

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

const std::vector<std::string>& corpus() {
  static const std::vector<std::string> files = saved_graph_corpus();
  return files;
}

const std::vector<RawSavedGraph>& raw() {
  static const std::vector<RawSavedGraph> decoded = raw_corpus(corpus());
  return decoded;
}

// Recomputes the body size and CRC, so libFuzzer's byte mutations reach the body's parser.
void fix_header(std::string& s) {
  if (s.size() < kSavedGraphHeaderBytes) return;
  ByteWriter w;
  const std::string_view body = std::string_view(s).substr(kSavedGraphHeaderBytes);
  w.u64(body.size());
  w.u32(crc32(body));
  s.replace(12, 12, w.out());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  install_builtin_ops();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  bool ran = false;
  load_saved_graph_bytes(std::string(reinterpret_cast<const char*>(data), size), &ran).ok();  // errors are fine
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  std::mt19937_64 rng(seed);
  std::string s(reinterpret_cast<const char*>(data), size);
  if (s.size() < kSavedGraphHeaderBytes || std::memcmp(s.data(), kSavedGraphMagic, sizeof(kSavedGraphMagic)) != 0) {
    s = corpus()[rng() % corpus().size()];
  }
  if (rng() % 4 == 0 && s.size() <= max_size) {
    // libFuzzer's own byte mutations (they learn from comparisons), then a valid header again.
    std::memcpy(data, s.data(), s.size());
    s.assign(reinterpret_cast<const char*>(data), LLVMFuzzerMutate(data, s.size(), max_size));
    fix_header(s);
  } else {
    bool structured = false;
    s = mutate_saved_graph(s, corpus(), raw(), rng, &structured);
  }
  if (s.size() > max_size) return size;  // too long for libFuzzer: keep the input as it was
  std::memcpy(data, s.data(), s.size());
  return s.size();
}
