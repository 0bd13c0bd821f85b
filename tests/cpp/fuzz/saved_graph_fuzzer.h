// Random-mutation fuzzing of the saved-graph reader and the .npy reader: valid files are
// damaged (bit flips, byte overwrites, truncations, deleted, duplicated and spliced chunks,
// size fields overwritten with extreme counts) and loaded. Every input must load or fail with a
// Status; a crash, a sanitizer report, a hang or a huge allocation is the failure this finds.
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

#include "graphfn/core/status.h"

namespace graphfn {
namespace testing {

struct FuzzReport {
  int64_t runs = 0;
  int64_t loaded = 0;  // decoded (and, for saved graphs, compiled) without error
  int64_t ran = 0;     // saved graphs whose loop-free signatures also ran
  std::map<Code, int64_t> rejected;
  std::string summary() const;
};

// Valid encodings to start from: the sample saved graph (tests/cpp/serialize/) and variants.
std::vector<std::string> saved_graph_corpus();
std::vector<std::string> npy_corpus();

// One random mutation stack of `input`; `corpus` supplies splices. With `fix_header`, a saved
// graph's body size and CRC are recomputed, so the damage reaches the body's parser.
std::string mutate(const std::string& input, const std::vector<std::string>& corpus, bool fix_header,
                   std::mt19937_64& rng);

// Decodes, compiles every signature and runs the ones without loops on small inputs.
Status load_saved_graph_bytes(const std::string& bytes, bool* ran);

FuzzReport fuzz_saved_graphs(const std::vector<std::string>& corpus, int64_t runs, uint64_t seed);
FuzzReport fuzz_npy(int64_t runs, uint64_t seed);

}  // namespace testing
}  // namespace graphfn
