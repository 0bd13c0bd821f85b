// Small builders for hand-crafted saved graphs (raw_saved_graph.h): attrs of each kind, nodes,
// int32 constants, and the sample saved graph as raw data to start from.
//
//   RawSavedGraph raw = raw_sample();
//   RawGraph& f = raw.functions[0].graph;
//   const uint64_t shape = add_node(f, raw_const_int32("s", {2, 3}, {2}));
//   add_node(f, raw_node("n", "AddN", {}, {{"N", raw_int(0)}, {"T", raw_type(1)}}));
#pragma once
#include <cstring>

#include "fuzz/raw_saved_graph.h"
#include "fuzz/saved_graph_fuzzer.h"
#include "graphfn/serialize/byte_io.h"

namespace graphfn {
namespace testing {

inline RawAttr raw_int(int64_t v) { RawAttr a; a.tag = RawAttr::kInt; a.i = v; return a; }
inline RawAttr raw_bool(bool v) { RawAttr a; a.tag = RawAttr::kBool; a.b = v ? 1 : 0; return a; }
inline RawAttr raw_string(const std::string& v) { RawAttr a; a.tag = RawAttr::kString; a.s = v; return a; }
inline RawAttr raw_type(uint8_t code) { RawAttr a; a.tag = RawAttr::kType; a.type = code; return a; }
inline RawAttr raw_ints(std::vector<int64_t> v) { RawAttr a; a.tag = RawAttr::kInts; a.ints = std::move(v); return a; }
inline RawAttr raw_types(std::vector<uint8_t> v) { RawAttr a; a.tag = RawAttr::kTypes; a.types = std::move(v); return a; }
inline RawAttr raw_shape(std::vector<int64_t> dims) {
  RawAttr a;
  a.tag = RawAttr::kShape;
  a.shape.dims = std::move(dims);
  return a;
}
inline RawAttr raw_func(const std::string& name, RawGraph graph) {
  RawAttr a;
  a.tag = RawAttr::kFunc;
  a.funcs.push_back(RawFunc{name, std::move(graph)});
  return a;
}

// An int32 tensor: dtype 3, the shape, the byte count and the little-endian values.
inline RawTensor raw_int32_tensor(const std::vector<int32_t>& values, std::vector<int64_t> dims) {
  RawTensor t;
  t.dtype = 3;
  t.shape.dims = std::move(dims);
  ByteWriter w;
  w.varint(values.size() * 4);
  for (int32_t v : values) w.u32(static_cast<uint32_t>(v));
  t.payload = w.out();
  return t;
}

inline RawNode raw_node(const std::string& name, const std::string& op, std::vector<RawEndpoint> inputs,
                        std::vector<std::pair<std::string, RawAttr>> attrs = {}) {
  return RawNode{name, op, std::move(inputs), {}, std::move(attrs)};
}

inline RawNode raw_const_int32(const std::string& name, const std::vector<int32_t>& values, std::vector<int64_t> dims) {
  RawAttr value;
  value.tag = RawAttr::kTensor;
  value.tensor = raw_int32_tensor(values, std::move(dims));
  return raw_node(name, "Const", {}, {{"dtype", raw_type(3)}, {"value", value}});
}

// Appends `node` and returns its index.
inline uint64_t add_node(RawGraph& g, RawNode node) {
  g.nodes.push_back(std::move(node));
  return g.nodes.size() - 1;
}

inline uint64_t node_index(const RawGraph& g, const std::string& name) {
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].name == name) return i;
  }
  return g.nodes.size();
}

inline RawAttr* find_attr(RawNode& node, const std::string& name) {
  for (auto& item : node.attrs) {
    if (item.first == name) return &item.second;
  }
  return nullptr;
}

// The sample saved graph without its loop function (saved_graph_corpus()[1]): function 0 is
// "f" of signature "serving_default".
inline RawSavedGraph raw_sample() {
  RawSavedGraph raw;
  if (!decode_raw(saved_graph_corpus()[1], &raw).ok()) raw.functions.clear();
  return raw;
}

}  // namespace testing
}  // namespace graphfn
