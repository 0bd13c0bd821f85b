// Fuzzing of the saved-graph reader and the .npy reader. Saved graphs are damaged two ways:
// as bytes (bit flips, byte overwrites, truncations, deleted, duplicated and spliced chunks,
// size fields overwritten with extreme counts), and as structure (structure_mutator.h: the file
// is decoded, its graphs, attrs, dtypes and counts changed, and encoded again with a valid CRC).
// Every input must load or fail with a Status; a crash, a sanitizer report, a hang or a huge
// allocation is the failure this finds. libfuzzer_saved_graph.cc drives the same mutations from
// libFuzzer (clang), guided by coverage.
//
// Catch2 runs a few thousand inputs (test_fuzz_saved.cc); graphfn_fuzz_saved (main/) runs as
// many as asked, e.g. under the sanitizers (docs/saving.md):
//   ./build/asan/tests/cpp/graphfn_fuzz_saved --runs 100000
#pragma once
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "fuzz/raw_saved_graph.h"
#include "graphfn/core/status.h"

namespace graphfn {
namespace testing {

struct FuzzReport {
  int64_t runs = 0;
  int64_t structured = 0;  // saved graphs changed as structure, re-encoded with a valid CRC
  int64_t crc_valid = 0;   // saved graphs whose header and CRC are valid (so the body is parsed)
  int64_t loaded = 0;      // decoded (and, for saved graphs, compiled) without error
  int64_t ran = 0;         // saved graphs whose loop-free signatures also ran
  std::map<Code, int64_t> rejected;
  std::map<std::string, int64_t> reasons;  // "<code>: <message without names and numbers>"
  void add(const Status& s);
  std::string summary() const;
  std::string histogram(size_t top) const;  // the `top` most frequent reasons, one a line
};

// A status's message without its context ("function 'f': node 'x' (Mul): "), names in quotes
// and numbers, so messages that differ only in those count as one reason.
std::string reason_of(const Status& s);

// Valid encodings to start from: the sample saved graph (tests/cpp/serialize/) and variants.
std::vector<std::string> saved_graph_corpus();
std::vector<std::string> npy_corpus();

// One random mutation stack of `input`; `corpus` supplies splices. With `fix_header`, a saved
// graph's body size and CRC are recomputed, so the damage reaches the body's parser.
std::string mutate(const std::string& input, const std::vector<std::string>& corpus, bool fix_header,
                   std::mt19937_64& rng);
// The corpus decoded as raw structure (raw_saved_graph.h), for structure mutations.
std::vector<RawSavedGraph> raw_corpus(const std::vector<std::string>& corpus);
// A saved graph mutated as structure (half the time), as bytes with the header fixed, or as bytes.
std::string mutate_saved_graph(const std::string& input, const std::vector<std::string>& corpus,
                               const std::vector<RawSavedGraph>& raw, std::mt19937_64& rng, bool* structured);

// Decodes, compiles every signature and runs the ones without loops on small inputs.
Status load_saved_graph_bytes(const std::string& bytes, bool* ran);

FuzzReport fuzz_saved_graphs(const std::vector<std::string>& corpus, int64_t runs, uint64_t seed);
// Only structure mutations: every input has a valid CRC.
FuzzReport fuzz_saved_graph_structure(const std::vector<std::string>& corpus, int64_t runs, uint64_t seed);
FuzzReport fuzz_npy(int64_t runs, uint64_t seed);

}  // namespace testing
}  // namespace graphfn
