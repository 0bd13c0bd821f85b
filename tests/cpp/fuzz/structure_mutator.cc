#include "fuzz/structure_mutator.h"

#include <limits>

#include "graphfn/ir/op_registry.h"
#include "graphfn/serialize/byte_io.h"

namespace graphfn {
namespace testing {
namespace {

using Rng = std::mt19937_64;

uint64_t pick(Rng& rng, uint64_t n) { return n ? rng() % n : 0; }
bool coin(Rng& rng) { return rng() & 1; }

template <typename T>
T& one_of(std::vector<T>& items, Rng& rng) { return items[pick(rng, items.size())]; }

// Ints a hostile file may hold where a count, an index, an axis or a size belongs.
int64_t extreme_int(Rng& rng) {
  static const int64_t kValues[] = {0, 1, 2, -1, -2, 3, 7, 64, 254, 255, 65536, 65537, int64_t(1) << 31,
                                    (int64_t(1) << 31) - 1, int64_t(1) << 40, int64_t(1) << 62,
                                    std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
  return coin(rng) ? kValues[pick(rng, sizeof(kValues) / sizeof(kValues[0]))] : static_cast<int64_t>(pick(rng, 9)) - 4;
}

// DataType numbers: mostly ones graphfn has, else the codes that once indexed past its tables.
uint8_t dtype_code(Rng& rng) {
  static const uint8_t kCodes[] = {1, 2, 3, 4, 5, 6, 7, 9, 10, 20, 0, 8, 11, 19, 21, 22, 40, 99, 127, 255};
  return kCodes[pick(rng, coin(rng) ? 10 : sizeof(kCodes))];
}

RawShape random_shape(Rng& rng) {
  RawShape s;
  switch (pick(rng, 6)) {
    case 0: s.known = 0; break;
    case 1: s.dims.assign(pick(rng, 300), 1); break;  // ranks around TF's limit of 254
    default:
      for (uint64_t i = 0, n = pick(rng, 5); i < n; ++i) s.dims.push_back(coin(rng) ? extreme_int(rng) : int64_t(pick(rng, 5)) - 1);
  }
  return s;
}

uint64_t any_index(uint64_t size, Rng& rng) {
  switch (pick(rng, 4)) {
    case 0: return size;                          // one past the end
    case 1: return size + pick(rng, 4);           // missing
    case 2: return uint64_t(extreme_int(rng));    // absurd
    default: return pick(rng, size + 1);          // anything, often valid
  }
}

RawTensor random_tensor(Rng& rng) {
  RawTensor t;
  t.dtype = dtype_code(rng);
  t.shape = random_shape(rng);
  if (t.shape.dims.size() > 4) t.shape.dims.resize(4);
  uint64_t n = 1;
  for (int64_t& d : t.shape.dims) {
    d = d < 0 || d > 8 ? int64_t(pick(rng, 3)) : d;
    n *= static_cast<uint64_t>(d);
  }
  ByteWriter w;  // usually the payload the dtype wants, sometimes a wrong one
  if (t.dtype == 7) {
    for (uint64_t i = 0; i < n; ++i) w.string(coin(rng) ? "a" : "");
  } else if (t.dtype == 20) {
    for (uint64_t i = 0; i < n; ++i) w.varint(pick(rng, 3));
  } else {
    // Small element values (a constant may become a size or an index), in 4-byte elements or not.
    const uint64_t item = coin(rng) ? 4 : pick(rng, 9);
    w.varint(n * item);
    for (uint64_t i = 0; i < n * item; ++i) w.u8(item == 4 && i % 4 ? 0 : static_cast<uint8_t>(pick(rng, 4)));
  }
  t.payload = w.out();
  return t;
}

// An attr of the OpDef kind `kind` (any kind when it is unknown), with a hostile value.
RawAttr random_attr(const std::string& kind, const RawGraph* some_graph, Rng& rng) {
  static const char* const kKinds[] = {"int", "float", "bool", "string", "type", "shape", "list(int)", "tensor",
                                       "list(type)", "list(shape)", "func", "list(func)"};
  const std::string k = kind.empty() ? kKinds[pick(rng, 12)] : kind;
  RawAttr a;
  if (k == "int") a.tag = RawAttr::kInt, a.i = extreme_int(rng);
  else if (k == "float") a.tag = RawAttr::kFloat, a.f = coin(rng) ? std::numeric_limits<double>::quiet_NaN() : -1e300;
  else if (k == "bool") a.tag = RawAttr::kBool, a.b = static_cast<uint8_t>(pick(rng, 3));
  else if (k == "string") {
    static const char* const kStrings[] = {"", "{}", "%s", "file:///tmp/graphfn_fuzz_print.txt", "stdout", "stderr",
                                           "SAME", "VALID", "NHWC", "\xff\xfe", "{}{}{}{}"};
    a.tag = RawAttr::kString, a.s = kStrings[pick(rng, sizeof(kStrings) / sizeof(kStrings[0]))];
  } else if (k == "type") a.tag = RawAttr::kType, a.type = dtype_code(rng);
  else if (k == "shape") a.tag = RawAttr::kShape, a.shape = random_shape(rng);
  else if (k == "list(int)") {
    a.tag = RawAttr::kInts;
    for (uint64_t i = 0, n = coin(rng) ? pick(rng, 5) : pick(rng, 300); i < n; ++i) a.ints.push_back(extreme_int(rng));
  } else if (k == "tensor") a.tag = RawAttr::kTensor, a.tensor = random_tensor(rng);
  else if (k == "list(type)") {
    a.tag = RawAttr::kTypes;
    for (uint64_t i = 0, n = pick(rng, 5); i < n; ++i) a.types.push_back(dtype_code(rng));
  } else if (k == "list(shape)") {
    a.tag = RawAttr::kShapes;
    for (uint64_t i = 0, n = pick(rng, 4); i < n; ++i) a.shapes.push_back(random_shape(rng));
  } else {
    a.tag = k == "func" ? RawAttr::kFunc : RawAttr::kFuncs;
    for (uint64_t i = 0, n = a.tag == RawAttr::kFunc ? 1 : pick(rng, 3); i < n; ++i) {
      a.funcs.push_back(RawFunc{"fuzz_fn", some_graph ? *some_graph : RawGraph{}});
    }
  }
  return a;
}

const std::vector<std::string>& registered_ops() {
  static const std::vector<std::string> names = OpRegistry::global().op_names();
  return names;
}

std::string random_op(Rng& rng) {
  static const char* const kUnregistered[] = {"WriteFile", "PyFunc", "NoSuchOp", ""};
  // Unregistered names often enough (1 in 8) that the NotFound path is reached whatever the size
  // of the registry (which shifts every later draw).
  return pick(rng, 8) ? registered_ops()[pick(rng, registered_ops().size())] : kUnregistered[pick(rng, 4)];
}

// A node of a random registered op: inputs from earlier nodes (sometimes too few or too many),
// each declared attr with a value of its kind (sometimes left out), sometimes a stray attr.
RawNode fresh_node(const RawGraph& g, const RawGraph* some_graph, Rng& rng) {
  RawNode n;
  n.op = random_op(rng);
  n.name = "fuzz_" + std::to_string(rng() % 100000);
  const OpDef* op = OpRegistry::global().find(n.op);
  int64_t inputs = op ? static_cast<int64_t>(op->inputs.size()) : 1;
  if (op && op->has_list_input) inputs += static_cast<int64_t>(pick(rng, 4)) - 1;
  if (!pick(rng, 4)) inputs += static_cast<int64_t>(pick(rng, 3)) - 1;
  for (int64_t i = 0; i < inputs; ++i) {
    n.inputs.push_back(RawEndpoint{pick(rng, 8) ? pick(rng, g.nodes.size()) : any_index(g.nodes.size(), rng),
                                   pick(rng, 8) ? 0 : pick(rng, 3)});
  }
  if (op) {
    for (const AttrDef& def : op->attrs) {
      if (pick(rng, 6)) n.attrs.emplace_back(def.name, random_attr(def.kind, some_graph, rng));
    }
  }
  if (!pick(rng, 8)) n.attrs.emplace_back(pick(rng, 2) ? "T" : "_stray", random_attr("", some_graph, rng));
  return n;
}

void mutate_endpoint(RawEndpoint& e, uint64_t here, Rng& rng) {
  switch (pick(rng, 4)) {
    case 0: e.node = here; break;                               // itself: a cycle
    case 1: e.node = here + 1 + pick(rng, 3); break;            // a later node: a cycle
    case 2: e.index = any_index(e.index + 1, rng); break;       // an output it may not have
    default: e.node = any_index(here, rng); break;
  }
}

void mutate_attr(RawNode& node, const RawGraph* some_graph, Rng& rng) {
  if (node.attrs.empty()) {
    node.attrs.emplace_back("T", random_attr("", some_graph, rng));
    return;
  }
  const size_t at = pick(rng, node.attrs.size());
  auto& [name, attr] = node.attrs[at];
  const OpDef* op = OpRegistry::global().find(node.op);
  const AttrDef* def = op ? op->find_attr(name) : nullptr;
  switch (pick(rng, 6)) {
    case 0: attr = random_attr("", some_graph, rng); break;  // any kind
    case 1: node.attrs.erase(node.attrs.begin() + at); break;
    case 2: node.attrs.push_back(node.attrs[at]); break;  // a duplicate name
    default:  // a hostile value of the declared kind, or a change in place
      if (def && coin(rng)) {
        attr = random_attr(def->kind, some_graph, rng);
      } else if (attr.tag == RawAttr::kInt) {
        attr.i = extreme_int(rng);
      } else if (attr.tag == RawAttr::kType) {
        attr.type = dtype_code(rng);
      } else if (attr.tag == RawAttr::kShape) {
        attr.shape = random_shape(rng);
      } else if (attr.tag == RawAttr::kInts) {
        if (coin(rng) || attr.ints.empty()) attr.ints.resize(pick(rng, 6), extreme_int(rng));
        else one_of(attr.ints, rng) = extreme_int(rng);
      } else if (attr.tag == RawAttr::kTypes) {
        if (coin(rng) || attr.types.empty()) attr.types.resize(pick(rng, 5), dtype_code(rng));
        else one_of(attr.types, rng) = dtype_code(rng);
      } else if (attr.tag == RawAttr::kShapes) {
        if (coin(rng) || attr.shapes.empty()) attr.shapes.resize(pick(rng, 4), random_shape(rng));
        else one_of(attr.shapes, rng) = random_shape(rng);
      } else if (attr.tag == RawAttr::kTensor) {
        if (coin(rng)) attr.tensor.dtype = dtype_code(rng);
        else attr.tensor.shape = random_shape(rng);
      } else if (!attr.funcs.empty()) {
        RawGraph& fg = one_of(attr.funcs, rng).graph;
        switch (pick(rng, 4)) {
          case 0: fg = RawGraph{}; break;
          case 1: if (!fg.arguments.empty()) fg.arguments.pop_back(); break;
          case 2: if (!fg.results.empty()) fg.results.push_back(fg.results[0]); else fg.results.clear(); break;
          default: if (some_graph) fg = *some_graph; break;  // another function in its place
        }
      } else {
        attr = random_attr("", some_graph, rng);
      }
  }
}

RawFunc* first_func(RawGraph& g) {
  for (RawNode& n : g.nodes) {
    for (auto& item : n.attrs) {
      if (!item.second.funcs.empty()) return &item.second.funcs[0];
    }
  }
  return nullptr;
}

// Puts a copy of `g` in place of its first func attr's graph, and so on `levels` deep: deep (or
// too deep) nesting, the only way a function can contain itself in this format. The file grows
// by one copy of `g` per level.
void nest(RawGraph& g, int levels) {
  RawGraph* at = &g;
  for (int i = 0; i < levels; ++i) {
    RawFunc* f = first_func(*at);
    if (!f) return;
    RawGraph copy = *at;  // copied before f (inside *at) changes
    f->graph = std::move(copy);
    at = &f->graph;
  }
}

void mutate_graph(RawGraph& g, const RawGraph* some_graph, const std::vector<RawSavedGraph>& corpus, Rng& rng) {
  const uint64_t n = g.nodes.size();
  if (n == 0) {
    g.nodes.push_back(fresh_node(g, some_graph, rng));
    return;
  }
  const uint64_t here = pick(rng, n);
  RawNode& node = g.nodes[here];
  switch (pick(rng, 14)) {
    case 0:
    case 1:
      if (node.inputs.empty()) node.inputs.push_back(RawEndpoint{any_index(here, rng), 0});
      else mutate_endpoint(one_of(node.inputs, rng), here, rng);
      break;
    case 2:  // arity
      if (!node.inputs.empty() && coin(rng)) node.inputs.erase(node.inputs.begin() + pick(rng, node.inputs.size()));
      else if (!node.inputs.empty()) node.inputs.push_back(one_of(node.inputs, rng));
      else node.inputs.clear();
      break;
    case 3: node.control_inputs.push_back(coin(rng) ? here + pick(rng, 3) : any_index(here, rng)); break;
    case 4: node.op = random_op(rng); break;
    case 5:
    case 6:
    case 7: mutate_attr(node, some_graph, rng); break;
    case 8: g.nodes.insert(g.nodes.begin() + pick(rng, n + 1), fresh_node(g, some_graph, rng)); break;
    case 9: {  // delete, duplicate or splice a node (renamed); later indices are not adjusted
      if (coin(rng)) {
        g.nodes.erase(g.nodes.begin() + here);
        break;
      }
      RawNode copy = node;
      if (!coin(rng) && !corpus.empty()) {
        const RawSavedGraph& other = corpus[pick(rng, corpus.size())];
        if (!other.functions.empty()) {
          const RawGraph& og = other.functions[pick(rng, other.functions.size())].graph;
          if (!og.nodes.empty()) copy = og.nodes[pick(rng, og.nodes.size())];
        }
      }
      copy.name += "_" + std::to_string(rng() % 100000);
      g.nodes.insert(g.nodes.begin() + pick(rng, n + 1), std::move(copy));
      break;
    }
    case 10: node.name = coin(rng) ? g.nodes[pick(rng, n)].name : std::string(pick(rng, 2) ? "" : "\xc3"); break;
    case 11:  // arguments
      if (g.arguments.empty() || coin(rng)) g.arguments.push_back(any_index(n, rng));
      else one_of(g.arguments, rng) = coin(rng) ? any_index(n, rng) : g.arguments[0];
      break;
    case 12:  // results
      if (g.results.empty() || coin(rng)) g.results.push_back(RawEndpoint{any_index(n, rng), pick(rng, 2)});
      else if (coin(rng)) g.results.pop_back();
      else mutate_endpoint(one_of(g.results, rng), n, rng);
      break;
    default: nest(g, 1 + static_cast<int>(pick(rng, 40))); break;
  }
}

void mutate_top(RawSavedGraph& raw, Rng& rng) {
  switch (pick(rng, 5)) {
    case 0:
      if (!raw.signatures.empty()) one_of(raw.signatures, rng).function = any_index(raw.functions.size(), rng);
      break;
    case 1:
      if (!raw.signatures.empty()) {
        auto& names = coin(rng) ? one_of(raw.signatures, rng).inputs : one_of(raw.signatures, rng).outputs;
        if (names.empty() || coin(rng)) names.push_back(names.empty() ? "x" : names[0]);
        else names.pop_back();
      }
      break;
    case 2:
      if (!raw.variables.empty()) {
        RawTensor& value = one_of(raw.variables, rng).value;
        if (coin(rng)) value.dtype = dtype_code(rng);
        else value = random_tensor(rng);
      }
      break;
    case 3:
      if (!raw.variables.empty()) one_of(raw.variables, rng).trainable = static_cast<uint8_t>(pick(rng, 3));
      break;
    default:
      if (!raw.functions.empty() && coin(rng)) raw.functions.push_back(raw.functions[pick(rng, raw.functions.size())]);
      else if (!raw.signatures.empty()) raw.signatures.push_back(raw.signatures[0]);
  }
}

}  // namespace

void mutate_structure(RawSavedGraph& raw, const std::vector<RawSavedGraph>& corpus, Rng& rng) {
  for (uint64_t k = 0, count = coin(rng) ? 1 : 1 + pick(rng, 4); k < count; ++k) {
    std::vector<RawGraph*> graphs = all_graphs(raw);
    if (graphs.empty() || !pick(rng, 8)) {
      mutate_top(raw, rng);
      continue;
    }
    RawGraph* g = graphs[pick(rng, graphs.size())];
    // A copy of another graph of this file, for func attrs to hold instead of theirs.
    const RawGraph other = *graphs[pick(rng, graphs.size())];
    mutate_graph(*g, &other, corpus, rng);
  }
}

bool mutate_structure(std::string& bytes, const std::vector<RawSavedGraph>& corpus, Rng& rng) {
  RawSavedGraph raw;
  if (!decode_raw(bytes, &raw).ok()) return false;
  mutate_structure(raw, corpus, rng);
  bytes = encode_raw(raw);
  return true;
}

}  // namespace testing
}  // namespace graphfn
