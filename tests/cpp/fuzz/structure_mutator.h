// Structure-aware mutation of saved graphs: a file is decoded into its raw structure
// (raw_saved_graph.h), one to four changes are made to what the reader must judge — node inputs
// pointing at later, missing or wrong outputs (cycles), control inputs, op names swapped for other
// registered ops, new nodes of any registered op with random inputs and attrs of its declared
// kinds, int/type/shape/list attrs set to extremes and out-of-range dtype codes, attr kinds
// swapped, attrs dropped or duplicated, function graphs replaced, emptied or nested deeper,
// arguments, results and signatures pointing anywhere, variables and constants with the wrong
// dtype or shape, nodes deleted, duplicated or spliced from another file — and it is encoded again
// with a correct size and CRC, so every change reaches the graph reader and the validation.
#pragma once
#include <random>
#include <string>
#include <vector>

#include "fuzz/raw_saved_graph.h"

namespace graphfn {
namespace testing {

// Changes `raw` in place; `corpus` (decoded files) supplies nodes and graphs to splice in.
void mutate_structure(RawSavedGraph& raw, const std::vector<RawSavedGraph>& corpus, std::mt19937_64& rng);

// Decodes `bytes`, mutates its structure and encodes it again; bytes that do not decode as raw
// data are returned unchanged (false).
bool mutate_structure(std::string& bytes, const std::vector<RawSavedGraph>& corpus, std::mt19937_64& rng);

}  // namespace testing
}  // namespace graphfn
