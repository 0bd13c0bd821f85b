#include "graphfn/serialize/graph_codec.h"

#include <type_traits>
#include <unordered_set>

#include "graphfn/ir/attr_check.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/verifier.h"

namespace graphfn {
namespace {

// Attr value tags: the index of the AttrValue alternative (0, "no value", is never written).
static_assert(std::variant_size_v<AttrValue> == 13, "new AttrValue kinds need a tag and docs/saving.md");

// ---- writing ----

Status write_graph_at(ByteWriter& w, const Graph& graph, const ResourceToIndex* resources);

void write_shapes(ByteWriter& w, const std::vector<Shape>& shapes) {
  w.varint(shapes.size());
  for (const Shape& s : shapes) write_shape(w, s);
}

Status write_func(ByteWriter& w, const FuncAttr& f, const ResourceToIndex* resources) {
  if (!f.graph) return errors::InvalidArgument("function '", f.name, "' has no graph");
  w.string(f.name);
  return with_context(write_graph_at(w, *f.graph, resources), "function '" + f.name + "'");
}

Status write_attr(ByteWriter& w, const AttrValue& value, const ResourceToIndex* resources) {
  if (value.index() == 0) return errors::InvalidArgument("attr has no value");
  w.u8(static_cast<uint8_t>(value.index()));
  return std::visit([&](const auto& v) -> Status {
    using V = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<V, int64_t>) w.svarint(v);
    else if constexpr (std::is_same_v<V, double>) w.f64(v);
    else if constexpr (std::is_same_v<V, bool>) w.u8(v ? 1 : 0);
    else if constexpr (std::is_same_v<V, std::string>) w.string(v);
    else if constexpr (std::is_same_v<V, DType>) write_dtype(w, v);
    else if constexpr (std::is_same_v<V, Shape>) write_shape(w, v);
    else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
      w.varint(v.size());
      for (int64_t i : v) w.svarint(i);
    } else if constexpr (std::is_same_v<V, Tensor>) return write_tensor(w, v, resources);
    else if constexpr (std::is_same_v<V, std::vector<DType>>) {
      w.varint(v.size());
      for (DType dt : v) write_dtype(w, dt);
    } else if constexpr (std::is_same_v<V, std::vector<Shape>>) write_shapes(w, v);
    else if constexpr (std::is_same_v<V, FuncAttr>) return write_func(w, v, resources);
    else if constexpr (std::is_same_v<V, std::vector<FuncAttr>>) {
      w.varint(v.size());
      for (const FuncAttr& f : v) GRAPHFN_RETURN_IF_ERROR(write_func(w, f, resources));
    }
    return Status::OK();
  }, value);
}

Status write_node(ByteWriter& w, const Node& node, const ResourceToIndex* resources) {
  w.string(node.name);
  w.string(node.op->name);
  w.varint(node.inputs.size());
  for (const Endpoint& e : node.inputs) {
    w.varint(static_cast<uint64_t>(e.node));
    w.varint(static_cast<uint64_t>(e.index));
  }
  w.varint(node.control_inputs.size());
  for (int c : node.control_inputs) w.varint(static_cast<uint64_t>(c));
  w.varint(node.attrs.items().size());
  for (const auto& [name, value] : node.attrs.items()) {
    w.string(name);
    GRAPHFN_RETURN_IF_ERROR(with_context(write_attr(w, value, resources), "attr '" + name + "'"));
  }
  return Status::OK();
}

Status write_graph_at(ByteWriter& w, const Graph& graph, const ResourceToIndex* resources) {
  w.varint(static_cast<uint64_t>(graph.num_nodes()));
  for (int i = 0; i < graph.num_nodes(); ++i) {
    const Node& node = graph.node(i);
    GRAPHFN_RETURN_IF_ERROR(
        with_context(write_node(w, node, resources), "node '" + node.name + "' (" + node.op->name + ")"));
  }
  w.varint(graph.arguments.size());
  for (int a : graph.arguments) w.varint(static_cast<uint64_t>(a));
  w.varint(graph.results.size());
  for (const Endpoint& e : graph.results) {
    w.varint(static_cast<uint64_t>(e.node));
    w.varint(static_cast<uint64_t>(e.index));
  }
  return Status::OK();
}

// ---- reading ----

class GraphReader {
 public:
  GraphReader(ByteReader& r, const IndexToResource* resources) : r_(r), resources_(resources) {}

  Status graph(int depth, std::shared_ptr<Graph>* out) {
    if (depth > kMaxFunctionDepth) {
      return r_.corrupt("functions nest more than " + std::to_string(kMaxFunctionDepth) + " levels deep");
    }
    auto g = std::make_shared<Graph>();
    int64_t n = 0;
    GRAPHFN_RETURN_IF_ERROR(r_.count(&n, "nodes", kMaxGraphItems, 3));
    for (int64_t i = 0; i < n; ++i) GRAPHFN_RETURN_IF_ERROR(node(*g, depth));
    GRAPHFN_RETURN_IF_ERROR(arguments(*g));
    int64_t n_results = 0;
    GRAPHFN_RETURN_IF_ERROR(r_.count(&n_results, "results", kMaxGraphItems, 2));
    for (int64_t i = 0; i < n_results; ++i) {
      Endpoint e;
      GRAPHFN_RETURN_IF_ERROR(endpoint(*g, g->num_nodes(), "result", &e));
      g->results.push_back(e);
    }
    Status verified = verify_graph(*g);
    if (!verified.ok()) return errors::InvalidArgument(verified.message());
    *out = std::move(g);
    return Status::OK();
  }

 private:
  // An output of one of the first `before` nodes.
  Status endpoint(const Graph& g, int before, const char* what, Endpoint* e) {
    uint64_t node = 0, index = 0;
    GRAPHFN_RETURN_IF_ERROR(r_.varint(&node));
    if (node >= static_cast<uint64_t>(before)) {
      return r_.corrupt(std::string(what) + " refers to node " + std::to_string(node) +
                        ", which does not come before it (inputs must be earlier nodes, so graphs have no cycles)");
    }
    GRAPHFN_RETURN_IF_ERROR(r_.varint(&index));
    const Node& src = g.node(static_cast<int>(node));
    if (index >= src.output_dtypes.size()) {
      return r_.corrupt(std::string(what) + " refers to output " + std::to_string(index) + " of node '" + src.name +
                        "', which has " + std::to_string(src.output_dtypes.size()));
    }
    *e = Endpoint{static_cast<int>(node), static_cast<int>(index)};
    return Status::OK();
  }

  Status node(Graph& g, int depth) {
    std::string name, op_name;
    GRAPHFN_RETURN_IF_ERROR(r_.name(&name, "node name"));
    GRAPHFN_RETURN_IF_ERROR(r_.name(&op_name, "op name"));
    const std::string where = "node '" + name + "' (" + op_name + ")";
    const OpDef* op = OpRegistry::global().find(op_name);
    if (!op) return errors::NotFound("Op type not registered '", op_name, "' (", where, ")");
    std::vector<Endpoint> inputs;
    std::vector<int> controls;
    AttrMap attrs;
    GRAPHFN_RETURN_IF_ERROR(with_context(node_body(g, depth, &inputs, &controls, &attrs), where));
    std::vector<DType> dtypes;
    for (const Endpoint& e : inputs) dtypes.push_back(g.dtype(e));
    GRAPHFN_RETURN_IF_ERROR(with_context(check_node_attrs(*op, dtypes, &attrs), where));
    if (g.find_node(name) >= 0 || g.unique_name(name) != name) {
      return errors::InvalidArgument("two nodes are named '", name, "'");
    }
    int id = 0;
    GRAPHFN_RETURN_IF_ERROR(with_context(g.add_node(*op, name, inputs, std::move(attrs), &id, true), where));
    for (int c : controls) g.add_control_input(id, c);
    return Status::OK();
  }

  Status node_body(const Graph& g, int depth, std::vector<Endpoint>* inputs, std::vector<int>* controls,
                   AttrMap* attrs) {
    int64_t n = 0;
    GRAPHFN_RETURN_IF_ERROR(r_.count(&n, "inputs", kMaxGraphItems, 2));
    inputs->resize(n);
    for (Endpoint& e : *inputs) GRAPHFN_RETURN_IF_ERROR(endpoint(g, g.num_nodes(), "an input", &e));
    GRAPHFN_RETURN_IF_ERROR(r_.count(&n, "control inputs", kMaxGraphItems));
    for (int64_t i = 0; i < n; ++i) {
      int64_t c = 0;
      GRAPHFN_RETURN_IF_ERROR(r_.index(g.num_nodes(), &c, "control input (an earlier node)"));
      controls->push_back(static_cast<int>(c));
    }
    GRAPHFN_RETURN_IF_ERROR(r_.count(&n, "attrs", kMaxGraphItems, 2));
    for (int64_t i = 0; i < n; ++i) {
      std::string name;
      AttrValue value;
      GRAPHFN_RETURN_IF_ERROR(r_.name(&name, "attr name"));
      if (attrs->find(name)) return r_.corrupt("attr '" + name + "' appears twice");
      GRAPHFN_RETURN_IF_ERROR(with_context(attr(depth, &value), "attr '" + name + "'"));
      attrs->set(name, std::move(value));
    }
    return Status::OK();
  }

  Status func(int depth, FuncAttr* f) {
    GRAPHFN_RETURN_IF_ERROR(r_.name(&f->name, "function name"));
    std::shared_ptr<Graph> g;
    GRAPHFN_RETURN_IF_ERROR(with_context(graph(depth + 1, &g), "function '" + f->name + "'"));
    f->graph = std::move(g);
    return Status::OK();
  }

  template <typename T, typename ReadOne>
  Status list(std::vector<T>* out, const char* what, ReadOne read_one) {
    int64_t n = 0;
    GRAPHFN_RETURN_IF_ERROR(r_.count(&n, what, kMaxGraphItems));
    out->resize(n);
    for (T& item : *out) GRAPHFN_RETURN_IF_ERROR(read_one(&item));
    return Status::OK();
  }

  Status attr(int depth, AttrValue* value) {
    uint8_t tag = 0;
    GRAPHFN_RETURN_IF_ERROR(r_.u8(&tag));
    switch (tag) {
      case 1: { int64_t v = 0; GRAPHFN_RETURN_IF_ERROR(r_.svarint(&v)); *value = v; return Status::OK(); }
      case 2: { double v = 0; GRAPHFN_RETURN_IF_ERROR(r_.f64(&v)); *value = v; return Status::OK(); }
      case 3: {
        uint8_t b = 0;
        GRAPHFN_RETURN_IF_ERROR(r_.u8(&b));
        if (b > 1) return r_.corrupt("bool attr is neither 0 nor 1");
        *value = b == 1;
        return Status::OK();
      }
      case 4: { std::string v; GRAPHFN_RETURN_IF_ERROR(r_.string(&v, "string attr")); *value = std::move(v); return Status::OK(); }
      case 5: { DType v; GRAPHFN_RETURN_IF_ERROR(read_dtype(r_, &v)); *value = v; return Status::OK(); }
      case 6: { Shape v; GRAPHFN_RETURN_IF_ERROR(read_shape(r_, &v)); *value = std::move(v); return Status::OK(); }
      case 7: {
        std::vector<int64_t> v;
        GRAPHFN_RETURN_IF_ERROR(list(&v, "ints", [&](int64_t* i) { return r_.svarint(i); }));
        *value = std::move(v);
        return Status::OK();
      }
      case 8: { Tensor v; GRAPHFN_RETURN_IF_ERROR(read_tensor(r_, &v, resources_)); *value = std::move(v); return Status::OK(); }
      case 9: {
        std::vector<DType> v;
        GRAPHFN_RETURN_IF_ERROR(list(&v, "types", [&](DType* d) { return read_dtype(r_, d); }));
        *value = std::move(v);
        return Status::OK();
      }
      case 10: {
        std::vector<Shape> v;
        GRAPHFN_RETURN_IF_ERROR(list(&v, "shapes", [&](Shape* s) { return read_shape(r_, s); }));
        *value = std::move(v);
        return Status::OK();
      }
      case 11: { FuncAttr v; GRAPHFN_RETURN_IF_ERROR(func(depth, &v)); *value = std::move(v); return Status::OK(); }
      case 12: {
        std::vector<FuncAttr> v;
        GRAPHFN_RETURN_IF_ERROR(list(&v, "functions", [&](FuncAttr* f) { return func(depth, f); }));
        *value = std::move(v);
        return Status::OK();
      }
      default: return r_.corrupt("unknown attr tag " + std::to_string(tag));
    }
  }

  Status arguments(Graph& g) {
    int64_t n = 0;
    GRAPHFN_RETURN_IF_ERROR(r_.count(&n, "arguments", kMaxGraphItems));
    std::vector<bool> seen(g.num_nodes(), false);
    for (int64_t i = 0; i < n; ++i) {
      int64_t a = 0;
      GRAPHFN_RETURN_IF_ERROR(r_.index(g.num_nodes(), &a, "argument node"));
      const Node& node = g.node(static_cast<int>(a));
      if (node.op->name != "Placeholder") {
        return errors::InvalidArgument("argument ", i, " is node '", node.name, "' (", node.op->name,
                                       "), not a Placeholder");
      }
      if (seen[a]) return errors::InvalidArgument("placeholder '", node.name, "' is fed twice");
      seen[a] = true;
      g.arguments.push_back(static_cast<int>(a));
    }
    return Status::OK();
  }

  ByteReader& r_;
  const IndexToResource* resources_;
};

}  // namespace

Status write_graph(ByteWriter& w, const Graph& graph, const ResourceToIndex* resources) {
  return write_graph_at(w, graph, resources);
}

Status read_graph(ByteReader& r, const IndexToResource* resources, std::shared_ptr<Graph>* out) {
  return GraphReader(r, resources).graph(0, out);
}

}  // namespace graphfn
