#include "fuzz/raw_saved_graph.h"

#include "graphfn/serialize/byte_io.h"
#include "graphfn/serialize/saved_graph.h"

namespace graphfn {
namespace testing {
namespace {

constexpr int64_t kAny = int64_t(1) << 40;
// Deeper than the real reader allows (32), so over-deep files stay decodable for more mutation,
// but bounded so this decoder's recursion is.
constexpr int kMaxRawDepth = 64;
constexpr uint8_t kStringCode = 7, kResourceCode = 20;

// ---- encoding ----

void put_shape(ByteWriter& w, const RawShape& s) {
  w.u8(s.known);
  if (s.known != 1) return;
  w.varint(s.dims.size());
  for (int64_t d : s.dims) w.svarint(d);
}

void put_tensor(ByteWriter& w, const RawTensor& t) {
  w.u8(t.dtype);
  put_shape(w, t.shape);
  w.bytes(t.payload.data(), t.payload.size());
}

void put_endpoint(ByteWriter& w, const RawEndpoint& e) {
  w.varint(e.node);
  w.varint(e.index);
}

void put_graph(ByteWriter& w, const RawGraph& g);

void put_attr(ByteWriter& w, const RawAttr& a) {
  w.u8(a.tag);
  switch (a.tag) {
    case RawAttr::kInt: w.svarint(a.i); break;
    case RawAttr::kFloat: w.f64(a.f); break;
    case RawAttr::kBool: w.u8(a.b); break;
    case RawAttr::kString: w.string(a.s); break;
    case RawAttr::kType: w.u8(a.type); break;
    case RawAttr::kShape: put_shape(w, a.shape); break;
    case RawAttr::kInts:
      w.varint(a.ints.size());
      for (int64_t i : a.ints) w.svarint(i);
      break;
    case RawAttr::kTensor: put_tensor(w, a.tensor); break;
    case RawAttr::kTypes:
      w.varint(a.types.size());
      for (uint8_t t : a.types) w.u8(t);
      break;
    case RawAttr::kShapes:
      w.varint(a.shapes.size());
      for (const RawShape& s : a.shapes) put_shape(w, s);
      break;
    case RawAttr::kFunc:
    case RawAttr::kFuncs:
      if (a.tag == RawAttr::kFuncs) w.varint(a.funcs.size());
      for (const RawFunc& f : a.funcs) {
        w.string(f.name);
        put_graph(w, f.graph);
        if (a.tag == RawAttr::kFunc) break;  // exactly one
      }
      break;
    default: break;  // an unknown tag with no payload
  }
}

void put_graph(ByteWriter& w, const RawGraph& g) {
  w.varint(g.nodes.size());
  for (const RawNode& n : g.nodes) {
    w.string(n.name);
    w.string(n.op);
    w.varint(n.inputs.size());
    for (const RawEndpoint& e : n.inputs) put_endpoint(w, e);
    w.varint(n.control_inputs.size());
    for (uint64_t c : n.control_inputs) w.varint(c);
    w.varint(n.attrs.size());
    for (const auto& [name, attr] : n.attrs) {
      w.string(name);
      put_attr(w, attr);
    }
  }
  w.varint(g.arguments.size());
  for (uint64_t a : g.arguments) w.varint(a);
  w.varint(g.results.size());
  for (const RawEndpoint& e : g.results) put_endpoint(w, e);
}

// ---- decoding ----

class RawReader {
 public:
  explicit RawReader(std::string_view body) : r_(body), body_(body) {}

  Status saved(RawSavedGraph* out) {
    GRAPHFN_RETURN_IF_ERROR(r_.string(&out->object_graph, "object graph"));
    GRAPHFN_RETURN_IF_ERROR(list(&out->variables, [&](RawSavedGraph::Variable* v) {
      GRAPHFN_RETURN_IF_ERROR(r_.string(&v->name, "variable name"));
      GRAPHFN_RETURN_IF_ERROR(r_.u8(&v->trainable));
      return tensor(&v->value);
    }));
    GRAPHFN_RETURN_IF_ERROR(list(&out->functions, [&](RawSavedGraph::Function* f) {
      GRAPHFN_RETURN_IF_ERROR(r_.string(&f->name, "function name"));
      GRAPHFN_RETURN_IF_ERROR(r_.string(&f->python_signature, "python signature"));
      return graph(0, &f->graph);
    }));
    GRAPHFN_RETURN_IF_ERROR(list(&out->signatures, [&](RawSavedGraph::Signature* s) {
      GRAPHFN_RETURN_IF_ERROR(r_.string(&s->key, "signature key"));
      GRAPHFN_RETURN_IF_ERROR(r_.varint(&s->function));
      GRAPHFN_RETURN_IF_ERROR(strings(&s->inputs));
      return strings(&s->outputs);
    }));
    if (!r_.at_end()) return r_.corrupt("bytes after the signatures");
    return Status::OK();
  }

 private:
  template <typename T, typename ReadOne>
  Status list(std::vector<T>* out, ReadOne read_one) {
    int64_t n = 0;
    GRAPHFN_RETURN_IF_ERROR(r_.count(&n, "items", kAny, 1));
    out->resize(n);
    for (T& item : *out) GRAPHFN_RETURN_IF_ERROR(read_one(&item));
    return Status::OK();
  }

  Status strings(std::vector<std::string>* out) {
    return list(out, [&](std::string* s) { return r_.string(s, "name"); });
  }

  Status shape(RawShape* s) {
    GRAPHFN_RETURN_IF_ERROR(r_.u8(&s->known));
    if (s->known != 1) return s->known == 0 ? Status::OK() : r_.corrupt("rank flag");
    return list(&s->dims, [&](int64_t* d) { return r_.svarint(d); });
  }

  // The payload's length depends on the dtype and the element count.
  Status tensor(RawTensor* t) {
    GRAPHFN_RETURN_IF_ERROR(r_.u8(&t->dtype));
    GRAPHFN_RETURN_IF_ERROR(shape(&t->shape));
    uint64_t n = 1;
    for (int64_t d : t->shape.dims) {
      if (d < 0 || (d > 0 && n > r_.remaining() / static_cast<uint64_t>(d))) {
        return r_.corrupt("tensor shape");  // unknown, or more elements than bytes left
      }
      n *= static_cast<uint64_t>(d);
    }
    if (t->shape.known != 1) return r_.corrupt("tensor of unknown rank");
    const size_t start = r_.offset();
    std::string skipped;
    for (uint64_t i = 0; i < n && (t->dtype == kStringCode || t->dtype == kResourceCode); ++i) {
      uint64_t index = 0;
      GRAPHFN_RETURN_IF_ERROR(t->dtype == kStringCode ? r_.string(&skipped, "string element") : r_.varint(&index));
    }
    if (t->dtype != kStringCode && t->dtype != kResourceCode) {
      uint64_t nbytes = 0;
      GRAPHFN_RETURN_IF_ERROR(r_.varint(&nbytes));
      if (nbytes > r_.remaining()) return r_.corrupt("tensor data");
      skipped.resize(nbytes);
      GRAPHFN_RETURN_IF_ERROR(r_.bytes(skipped.data(), nbytes, "tensor data"));
    }
    t->payload = std::string(body_.substr(start, r_.offset() - start));
    return Status::OK();
  }

  Status endpoint(RawEndpoint* e) {
    GRAPHFN_RETURN_IF_ERROR(r_.varint(&e->node));
    return r_.varint(&e->index);
  }

  Status func(int depth, RawFunc* f) {
    GRAPHFN_RETURN_IF_ERROR(r_.string(&f->name, "function name"));
    return graph(depth + 1, &f->graph);
  }

  Status attr(int depth, RawAttr* a) {
    GRAPHFN_RETURN_IF_ERROR(r_.u8(&a->tag));
    switch (a->tag) {
      case RawAttr::kInt: return r_.svarint(&a->i);
      case RawAttr::kFloat: return r_.f64(&a->f);
      case RawAttr::kBool: return r_.u8(&a->b);
      case RawAttr::kString: return r_.string(&a->s, "string attr");
      case RawAttr::kType: return r_.u8(&a->type);
      case RawAttr::kShape: return shape(&a->shape);
      case RawAttr::kInts: return list(&a->ints, [&](int64_t* i) { return r_.svarint(i); });
      case RawAttr::kTensor: return tensor(&a->tensor);
      case RawAttr::kTypes: return list(&a->types, [&](uint8_t* t) { return r_.u8(t); });
      case RawAttr::kShapes: return list(&a->shapes, [&](RawShape* s) { return shape(s); });
      case RawAttr::kFunc: a->funcs.resize(1); return func(depth, &a->funcs[0]);
      case RawAttr::kFuncs: return list(&a->funcs, [&](RawFunc* f) { return func(depth, f); });
      default: return r_.corrupt("attr tag");
    }
  }

  Status graph(int depth, RawGraph* g) {
    if (depth > kMaxRawDepth) return r_.corrupt("functions nest too deep");
    GRAPHFN_RETURN_IF_ERROR(list(&g->nodes, [&](RawNode* n) {
      GRAPHFN_RETURN_IF_ERROR(r_.string(&n->name, "node name"));
      GRAPHFN_RETURN_IF_ERROR(r_.string(&n->op, "op name"));
      GRAPHFN_RETURN_IF_ERROR(list(&n->inputs, [&](RawEndpoint* e) { return endpoint(e); }));
      GRAPHFN_RETURN_IF_ERROR(list(&n->control_inputs, [&](uint64_t* c) { return r_.varint(c); }));
      return list(&n->attrs, [&](std::pair<std::string, RawAttr>* item) {
        GRAPHFN_RETURN_IF_ERROR(r_.string(&item->first, "attr name"));
        return attr(depth, &item->second);
      });
    }));
    GRAPHFN_RETURN_IF_ERROR(list(&g->arguments, [&](uint64_t* a) { return r_.varint(a); }));
    return list(&g->results, [&](RawEndpoint* e) { return endpoint(e); });
  }

  ByteReader r_;
  std::string_view body_;
};

void collect(RawGraph& g, std::vector<RawGraph*>* out) {
  out->push_back(&g);
  for (RawNode& n : g.nodes) {
    for (auto& item : n.attrs) {
      for (RawFunc& f : item.second.funcs) collect(f.graph, out);
    }
  }
}

}  // namespace

Status decode_raw(std::string_view bytes, RawSavedGraph* out) {
  if (bytes.size() < kSavedGraphHeaderBytes) return Status(Code::kDataLoss, "no header");
  ByteReader header(bytes.substr(sizeof(kSavedGraphMagic)));
  uint32_t crc = 0;
  uint64_t size = 0;
  RawSavedGraph raw;
  GRAPHFN_RETURN_IF_ERROR(header.u32(&raw.version));
  GRAPHFN_RETURN_IF_ERROR(header.u64(&size));
  GRAPHFN_RETURN_IF_ERROR(header.u32(&crc));
  const std::string_view body = bytes.substr(kSavedGraphHeaderBytes);
  if (size != body.size() || crc32(body) != crc) return Status(Code::kDataLoss, "size or CRC");
  GRAPHFN_RETURN_IF_ERROR(RawReader(body).saved(&raw));
  *out = std::move(raw);
  return Status::OK();
}

std::string encode_raw(const RawSavedGraph& raw) {
  ByteWriter body;
  body.string(raw.object_graph);
  body.varint(raw.variables.size());
  for (const auto& v : raw.variables) {
    body.string(v.name);
    body.u8(v.trainable);
    put_tensor(body, v.value);
  }
  body.varint(raw.functions.size());
  for (const auto& f : raw.functions) {
    body.string(f.name);
    body.string(f.python_signature);
    put_graph(body, f.graph);
  }
  body.varint(raw.signatures.size());
  for (const auto& s : raw.signatures) {
    body.string(s.key);
    body.varint(s.function);
    for (const auto* names : {&s.inputs, &s.outputs}) {
      body.varint(names->size());
      for (const std::string& name : *names) body.string(name);
    }
  }
  ByteWriter w;
  w.bytes(kSavedGraphMagic, sizeof(kSavedGraphMagic));
  w.u32(raw.version);
  w.u64(body.out().size());
  w.u32(crc32(body.out()));
  w.out() += body.out();
  return std::move(w.out());
}

std::vector<RawGraph*> all_graphs(RawSavedGraph& raw) {
  std::vector<RawGraph*> out;
  for (auto& f : raw.functions) collect(f.graph, &out);
  return out;
}

}  // namespace testing
}  // namespace graphfn
