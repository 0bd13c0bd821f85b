// graphfn_fuzz_saved: the saved-graph and .npy fuzzers as a program (saved_graph_fuzzer.h).
//   graphfn_fuzz_saved [--runs N] [--structure-runs K] [--npy-runs M] [--seed S] [--corpus FILE]...
// N inputs mutated every way, K mutated only as structure (each with a valid CRC), M .npy files.
// Prints the counts and the most frequent rejection reasons; exits 0 after all of them (a crash
// or sanitizer report is the failure).
#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>

#include "fuzz/saved_graph_fuzzer.h"
#include "graphfn/runtime/builtin_ops.h"

using namespace graphfn::testing;

int main(int argc, char** argv) {
  graphfn::install_builtin_ops();
  int64_t runs = 100000, structure_runs = 100000, npy_runs = 20000;
  uint64_t seed = 1;
  std::vector<std::string> corpus = saved_graph_corpus();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--runs") runs = std::stoll(value);
    else if (flag == "--structure-runs") structure_runs = std::stoll(value);
    else if (flag == "--npy-runs") npy_runs = std::stoll(value);
    else if (flag == "--seed") seed = std::stoull(value);
    else if (flag == "--corpus") {
      std::ifstream in(value, std::ios::binary);
      corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } else {
      std::cerr << "usage: graphfn_fuzz_saved [--runs N] [--structure-runs K] [--npy-runs M] [--seed S] [--corpus FILE]...\n";
      return 2;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  const FuzzReport saved = fuzz_saved_graphs(corpus, runs, seed);
  const auto t1 = std::chrono::steady_clock::now();
  const FuzzReport structure = fuzz_saved_graph_structure(corpus, structure_runs, seed + 1);
  const auto t2 = std::chrono::steady_clock::now();
  const FuzzReport npy = fuzz_npy(npy_runs, seed);
  const auto t3 = std::chrono::steady_clock::now();
  auto seconds = [](auto d) { return std::chrono::duration<double>(d).count(); };
  std::cout << "saved graphs, all mutations: " << saved.summary() << " in " << seconds(t1 - t0) << " s\n"
            << saved.histogram(25)
            << "saved graphs, structure only: " << structure.summary() << " in " << seconds(t2 - t1) << " s\n"
            << structure.histogram(40)
            << ".npy files: " << npy.summary() << " in " << seconds(t3 - t2) << " s\n"
            << npy.histogram(10);
  return 0;
}
