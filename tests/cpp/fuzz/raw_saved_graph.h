// A saved graph's encoding (docs/saving.md, "The format") as plain data, for structure-aware
// fuzzing and hand-crafted hostile files: decode_raw reads what graphfn writes without giving it
// meaning (no registry, no type checks), and encode_raw writes any RawSavedGraph back with a
// correct body size and CRC. Nodes may then refer to anything, attrs hold any tag, dtypes any
// code, and the real reader (serialize/saved_graph.h) must reject what does not check.
//
//   RawSavedGraph raw;
//   REQUIRE(decode_raw(bytes, &raw).ok());
//   raw.functions[0].graph.nodes[3].inputs[0].node = 7;   // a later node: a cycle
//   decode_saved_graph(encode_raw(raw), &saved);         // a DataLoss status
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graphfn/core/status.h"

namespace graphfn {
namespace testing {

struct RawShape {
  uint8_t known = 1;  // the rank flag; anything but 0/1 is damage
  std::vector<int64_t> dims;
};

// dtype, shape, then the payload exactly as encoded (byte count and data, strings, or indices).
struct RawTensor {
  uint8_t dtype = 1;
  RawShape shape;
  std::string payload;
};

struct RawEndpoint {
  uint64_t node = 0;
  uint64_t index = 0;
};

struct RawGraph;
struct RawFunc;  // std::vector of an incomplete type is fine (C++17)

// One attr: `tag` says which field holds the value (the tags of docs/saving.md).
struct RawAttr {
  enum Tag : uint8_t { kInt = 1, kFloat, kBool, kString, kType, kShape, kInts, kTensor, kTypes, kShapes, kFunc, kFuncs };
  uint8_t tag = kInt;
  int64_t i = 0;
  double f = 0;
  uint8_t b = 0;
  std::string s;
  uint8_t type = 1;
  RawShape shape;
  std::vector<int64_t> ints;
  RawTensor tensor;
  std::vector<uint8_t> types;
  std::vector<RawShape> shapes;
  std::vector<RawFunc> funcs;  // one for kFunc
};

struct RawNode {
  std::string name;
  std::string op;
  std::vector<RawEndpoint> inputs;
  std::vector<uint64_t> control_inputs;
  std::vector<std::pair<std::string, RawAttr>> attrs;
};

struct RawGraph {
  std::vector<RawNode> nodes;
  std::vector<uint64_t> arguments;
  std::vector<RawEndpoint> results;
};

struct RawFunc {
  std::string name;
  RawGraph graph;
};

struct RawSavedGraph {
  uint32_t version = 1;
  std::string object_graph;
  struct Variable {
    std::string name;
    uint8_t trainable = 1;
    RawTensor value;
  };
  struct Function {
    std::string name;
    std::string python_signature;
    RawGraph graph;
  };
  struct Signature {
    std::string key;
    uint64_t function = 0;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
  };
  std::vector<Variable> variables;
  std::vector<Function> functions;
  std::vector<Signature> signatures;
};

// Fails (DataLoss) only where the encoding itself is broken: wrong header or CRC, truncation,
// an attr tag or tensor dtype whose payload length cannot be known.
Status decode_raw(std::string_view bytes, RawSavedGraph* out);
std::string encode_raw(const RawSavedGraph& raw);

// Every graph in `raw`, functions first, then their func attrs' graphs (depth first), for
// picking one at random. Pointers stay valid until `raw` changes shape.
std::vector<RawGraph*> all_graphs(RawSavedGraph& raw);

}  // namespace testing
}  // namespace graphfn
