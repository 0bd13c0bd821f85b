// A short run of the saved-graph and .npy fuzzers (the long one: graphfn_fuzz_saved --runs N).
#include "harness.h"
#include "fuzz/saved_graph_fuzzer.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("fuzz: mutated saved graphs load or fail with a status") {
  const std::vector<std::string> corpus = saved_graph_corpus();
  REQUIRE(corpus.size() == 3);
  for (const std::string& bytes : corpus) {
    bool ran = false;
    REQUIRE(load_saved_graph_bytes(bytes, &ran).ok());
  }
  const FuzzReport report = fuzz_saved_graphs(corpus, 3000, 1);
  INFO(report.summary());
  CHECK(report.runs == 3000);
  CHECK(report.loaded > 30);  // some damage is harmless: the mutations reach deep into the reader
  CHECK(report.rejected.count(Code::kDataLoss));
}

TEST_CASE("fuzz: structure-mutated saved graphs (valid CRC) load or fail with a status") {
  const FuzzReport report = fuzz_saved_graph_structure(saved_graph_corpus(), 2000, 3);
  INFO(report.summary() << "\n" << report.histogram(30));
  CHECK(report.runs == 2000);
  CHECK(report.structured == 2000);
  CHECK(report.crc_valid == 2000);  // every input reaches the graph reader
  CHECK(report.loaded > 20);        // some changes are harmless (a dropped result, a new stderr print)
  // The graph reader's and the validation's errors, not the header's.
  CHECK(report.rejected.count(Code::kInvalidArgument));
  CHECK(report.rejected.count(Code::kNotFound));
  CHECK(report.rejected.count(Code::kDataLoss));
}

TEST_CASE("fuzz: mutated .npy files decode or fail with a status") {
  const FuzzReport report = fuzz_npy(2000, 2);
  INFO(report.summary());
  CHECK(report.runs == 2000);
  REQUIRE(report.rejected.count(Code::kInvalidArgument));
  CHECK(report.rejected.at(Code::kInvalidArgument) > 1000);
}
