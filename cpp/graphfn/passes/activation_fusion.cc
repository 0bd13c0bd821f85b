#include "graphfn/passes/activation_fusion.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "graphfn/ir/op_registry.h"
#include "graphfn/kernels/activation_fusion_attrs.h"
#include "graphfn/kernels/max_pool_taps.h"
#include "graphfn/passes/rewrite.h"

namespace graphfn {
namespace {

const OpDef* op_named(const char* name) { return OpRegistry::global().find(name); }

// Whether two nodes' attrs hold equal values under each of `names` (both absent counts as equal).
bool attr_maps_equal_on(const AttrMap& a, const AttrMap& b, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const AttrValue* x = a.find(name);
    const AttrValue* y = b.find(name);
    if ((x == nullptr) != (y == nullptr) || (x != nullptr && !attr_values_equal(*x, *y))) return false;
  }
  return true;
}

// Uses of each node: by data inputs (any output), as a result, and by control inputs. A node
// that stops being computed must have no use but the one the fusion absorbs.
// With `shape_readers`, reads by those Shape nodes do not count (see shape_readers()).
std::vector<int> count_uses(const Graph& graph, const std::vector<std::vector<int>>* shape_readers = nullptr) {
  std::vector<int> uses(graph.num_nodes(), 0);
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node& node = graph.node(id);
    for (const Endpoint& e : node.inputs) ++uses[e.node];
    for (int c : node.control_inputs) ++uses[c];
  }
  for (const Endpoint& e : graph.results) ++uses[e.node];
  if (shape_readers != nullptr) {
    for (int id = 0; id < graph.num_nodes(); ++id) uses[id] -= static_cast<int>((*shape_readers)[id].size());
  }
  return uses;
}

// The Shape nodes reading each node's first output. A fusion may absorb a node they read: its
// result has the same shape, and they read that instead (the gradient of AddV2 takes the shape of
// the convolution's output when the batch is unknown).
std::vector<std::vector<int>> shape_readers(const Graph& graph) {
  static const OpDef* const shape = op_named("Shape");
  std::vector<std::vector<int>> readers(graph.num_nodes());
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node& node = graph.node(id);
    if (node.op == shape && node.inputs.size() == 1 && node.inputs[0].index == 0 && node.control_inputs.empty()) {
      readers[node.inputs[0].node].push_back(id);
    }
  }
  return readers;
}

// Whether the Shape readers of `nodes` can read node `last` instead: they come after it (nodes
// only read earlier ones).
bool shape_readers_after(const std::vector<std::vector<int>>& readers, std::initializer_list<int> nodes, int last) {
  for (int n : nodes) {
    for (int r : readers[n]) {
      if (r <= last) return false;
    }
  }
  return true;
}

void redirect_shape_readers(Graph& graph, const std::vector<std::vector<int>>& readers, std::initializer_list<int> nodes,
                            int last) {
  for (int n : nodes) {
    for (int r : readers[n]) graph.mutable_node(r).inputs[0] = Endpoint{last, 0};
  }
}

bool is_float_nhwc(const Node& node) {
  const std::string* format = node.attrs.get_string("data_format");
  return node.attrs.get_type("T", DType::kInvalid) == DType::kFloat32 && (format == nullptr || *format == "NHWC");
}

// The node feeding `e` if it is a Conv2D that may be absorbed (float NHWC, used only here).
const Node* absorbable_conv(const Graph& graph, const std::vector<int>& uses, Endpoint e) {
  static const OpDef* const conv = op_named("Conv2D");
  const Node& node = graph.node(e.node);
  if (node.op != conv || e.index != 0 || uses[e.node] != 1 || !node.control_inputs.empty() || !is_float_nhwc(node)) {
    return nullptr;
  }
  return &node;
}

// A bias AddV2 may add to the convolution: [C] or [1, ..., 1, C] (at most rank 4), so the sum
// has the convolution's shape, C known and equal to the output channels.
bool is_channel_bias(const Graph& graph, Endpoint bias, const Node& conv) {
  const Shape& b = graph.shape(bias);
  const Shape& out = conv.output_shapes.empty() ? Shape() : conv.output_shapes[0];
  if (!b.fully_defined() || b.rank() < 1 || b.rank() > 4 || !out.known_rank() || out.rank() != 4) return false;
  for (int d = 0; d + 1 < b.rank(); ++d) {
    if (b.dim(d) != 1) return false;
  }
  return out.dim(3) >= 0 && b.dim(b.rank() - 1) == out.dim(3) && graph.dtype(bias) == DType::kFloat32;
}

// If `e` is a BiasAdd/AddV2 of a channel bias to an absorbable Conv2D, used only here: true, with
// the convolution and the bias.
bool conv_plus_bias(const Graph& graph, const std::vector<int>& uses, Endpoint e, const Node** conv, Endpoint* bias) {
  static const OpDef* const bias_add = op_named("BiasAdd");
  static const OpDef* const add = op_named("AddV2");
  const Node& node = graph.node(e.node);
  if (e.index != 0 || !node.control_inputs.empty() || node.inputs.size() != 2) return false;
  if (node.op == bias_add && is_float_nhwc(node)) {
    *conv = absorbable_conv(graph, uses, node.inputs[0]);
    *bias = node.inputs[1];
    return *conv != nullptr && is_channel_bias(graph, *bias, **conv);
  }
  if (node.op != add || node.attrs.get_type("T", DType::kInvalid) != DType::kFloat32) return false;
  for (int operand = 0; operand < 2; ++operand) {  // x + b and b + x: float addition commutes
    *conv = absorbable_conv(graph, uses, node.inputs[operand]);
    *bias = node.inputs[1 - operand];
    if (*conv != nullptr && is_channel_bias(graph, *bias, **conv)) return true;
  }
  return false;
}

// Rewrites node `id` (the chain's last) into GraphfnFusedConv2D of `conv`'s input and filter.
void rewrite_as_fused_conv(Graph& graph, int id, const Node& conv, Endpoint bias, bool relu) {
  static const OpDef* const fused = op_named("GraphfnFusedConv2D");
  AttrMap attrs = conv.attrs;
  attrs.set("activation", std::string(relu ? "Relu" : ""));
  const std::vector<Endpoint> inputs = {conv.inputs[0], conv.inputs[1], bias};
  const std::vector<DType> type_attrs = conv.type_attrs;  // T, the one type attr of both ops
  const std::shared_ptr<const SourceStack> defined_at = conv.defined_at;
  Node& node = graph.mutable_node(id);
  node.op = fused;
  node.inputs = inputs;
  node.attrs = std::move(attrs);
  node.type_attrs = type_attrs;
  node.defined_at = defined_at;  // errors point at the convolution (its shapes, its attrs)
}

// MaxPool's window when GraphfnFusedConv2DMaxPool can take it: float NHWC, VALID, strides equal
// to the window, [1, kh, kw, 1] with at most max_pool_taps::kMaxWindow pixels.
bool tiling_pool_window(const Node& pool, std::vector<int64_t>* ksize) {
  const std::vector<int64_t>* k = pool.attrs.get_int_list("ksize");
  const std::vector<int64_t>* strides = pool.attrs.get_int_list("strides");
  const std::string* padding = pool.attrs.get_string("padding");
  if (k == nullptr || strides == nullptr || padding == nullptr || *padding != "VALID" || *k != *strides ||
      k->size() != 4 || (*k)[0] != 1 || (*k)[3] != 1 || (*k)[1] < 1 || (*k)[2] < 1 ||
      (*k)[1] * (*k)[2] > max_pool_taps::kMaxWindow || !is_float_nhwc(pool)) {
    return false;
  }
  *ksize = *k;
  return true;
}

// GraphfnFusedConv2D -> MaxPool, the activation read by nothing else than the MaxPool and
// MaxPoolGrads of it: GraphfnFusedConv2DMaxPool (the MaxPool node, now also giving the taps) and
// GraphfnMaxPoolGradFromTaps (each MaxPoolGrad node). The activation is no longer computed.
bool fuse_pooling(Graph& graph) {
  static const OpDef* const fused_conv = op_named("GraphfnFusedConv2D");
  static const OpDef* const max_pool = op_named("MaxPool");
  static const OpDef* const max_pool_grad = op_named("MaxPoolGrad");
  static const OpDef* const conv_pool = op_named("GraphfnFusedConv2DMaxPool");
  static const OpDef* const grad_from_taps = op_named("GraphfnMaxPoolGradFromTaps");
  const std::vector<std::vector<int>> shapes = shape_readers(graph);
  const std::vector<int> uses = count_uses(graph);
  std::vector<std::vector<int>> readers(graph.num_nodes());  // data readers, once per input
  for (int id = 0; id < graph.num_nodes(); ++id) {
    for (const Endpoint& e : graph.node(id).inputs) readers[e.node].push_back(id);
  }
  bool changed = false;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node& pool = graph.node(id);
    std::vector<int64_t> ksize;
    if (pool.op != max_pool || !pool.control_inputs.empty() || pool.inputs.size() != 1 ||
        pool.inputs[0].index != 0 || !tiling_pool_window(pool, &ksize)) {
      continue;
    }
    const int conv_id = pool.inputs[0].node;
    const Node& conv = graph.node(conv_id);
    if (conv.op != fused_conv || !conv.control_inputs.empty() || conv.output_shapes.empty() ||
        !conv.output_shapes[0].known_rank() || conv.output_shapes[0].rank() != 4 || conv.output_shapes[0].dim(1) < 0 ||
        conv.output_shapes[0].dim(2) < 0 || uses[conv_id] != static_cast<int>(readers[conv_id].size())) {
      continue;  // (uses beyond the readers: a result or a control dependency)
    }
    // Every reader: this MaxPool once, and MaxPoolGrads of exactly this pooling.
    std::vector<int> grads;
    bool all_absorbed = true;
    int pool_reads = 0;
    for (int reader : readers[conv_id]) {
      const Node& r = graph.node(reader);
      if (reader == id) {
        ++pool_reads;
      } else if (std::find(shapes[conv_id].begin(), shapes[conv_id].end(), reader) != shapes[conv_id].end()) {
        continue;  // read from a gradient below, which has the activation's shape
      } else if (r.op == max_pool_grad && r.inputs.size() == 3 && r.inputs[0] == Endpoint{conv_id, 0} &&
                 r.inputs[1] == Endpoint{id, 0} && !(r.inputs[2].node == conv_id) && is_float_nhwc(r) &&
                 attr_maps_equal_on(r.attrs, pool.attrs, {"ksize", "strides", "padding"})) {
        grads.push_back(reader);
      } else {
        all_absorbed = false;
      }
    }
    // Shape readers read a gradient instead, one that is computed anyway (not a MaxPoolGrad a
    // ReluGrad absorbed) and comes before them (they are gradient code too), or nothing is fused.
    int shape_source = -1;
    for (int g : grads) {
      if (uses[g] > 0 && (shape_source < 0 || g < shape_source)) shape_source = g;
    }
    if (!all_absorbed || pool_reads != 1 ||
        (!shapes[conv_id].empty() && (shape_source < 0 || !shape_readers_after(shapes, {conv_id}, shape_source)))) {
      continue;
    }
    const Shape activation = conv.output_shapes[0];
    const Node conv_copy = conv;
    const std::vector<Shape> pooled_shapes = pool.output_shapes;
    Node& rewritten = graph.mutable_node(id);
    rewritten.op = conv_pool;
    rewritten.inputs = conv_copy.inputs;
    rewritten.attrs = conv_copy.attrs;
    rewritten.attrs.set("pool_ksize", ksize);
    rewritten.type_attrs = conv_copy.type_attrs;
    rewritten.output_dtypes = {DType::kFloat32, DType::kUInt8};
    rewritten.output_shapes = {pooled_shapes[0], pooled_shapes[0]};

    for (int g : grads) {
      const Node grad_copy = graph.node(g);
      Node& grad = graph.mutable_node(g);
      grad.op = grad_from_taps;
      grad.inputs = {Endpoint{id, 1}, grad_copy.inputs[2]};
      grad.attrs = AttrMap();
      grad.attrs.set("T", DType::kFloat32);
      grad.attrs.set("input_rows", activation.dim(1));
      grad.attrs.set("input_columns", activation.dim(2));
      grad.attrs.set("pool_ksize", ksize);
      grad.attrs.set("relu_grad", grad_copy.attrs.get_bool(kMaxPoolGradReluAttr, false));
      grad.type_attrs = {DType::kFloat32};
    }
    if (shape_source >= 0) redirect_shape_readers(graph, shapes, {conv_id}, shape_source);
    changed = true;
  }
  return changed;
}

}  // namespace

bool fuse_activations(Graph& graph) {
  static const OpDef* const relu = op_named("Relu");
  static const OpDef* const relu_grad = op_named("ReluGrad");
  static const OpDef* const max_pool_grad = op_named("MaxPoolGrad");
  std::vector<std::vector<int>> shapes = shape_readers(graph);
  std::vector<int> uses = count_uses(graph, &shapes);
  bool changed = false;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node& node = graph.node(id);
    if (!node.control_inputs.empty()) continue;
    const Node* conv = nullptr;
    Endpoint bias;
    if (node.op == relu && node.inputs.size() == 1 && node.attrs.get_type("T", DType::kInvalid) == DType::kFloat32 &&
        uses[node.inputs[0].node] == 1 && conv_plus_bias(graph, uses, node.inputs[0], &conv, &bias)) {
      const int add = node.inputs[0].node, conv_id = conv->id;
      if (!shape_readers_after(shapes, {conv_id, add}, id)) continue;
      rewrite_as_fused_conv(graph, id, *conv, bias, true);
      redirect_shape_readers(graph, shapes, {conv_id, add}, id);
      changed = true;
      continue;
    }
    if (node.op == relu_grad && node.inputs.size() == 2) {
      const Endpoint dx = node.inputs[0], features = node.inputs[1];
      const Node& pool_grad = graph.node(dx.node);
      if (pool_grad.op != max_pool_grad || dx.index != 0 || uses[dx.node] != 1 || !pool_grad.control_inputs.empty() ||
          pool_grad.inputs.size() != 3 || !(pool_grad.inputs[0] == features)) {
        continue;
      }
      // (mutable_node may replace node id's storage only: pool_grad, another node, stays valid.)
      Node& rewritten = graph.mutable_node(id);
      rewritten.op = pool_grad.op;
      rewritten.inputs = pool_grad.inputs;
      rewritten.attrs = pool_grad.attrs;
      rewritten.attrs.set(kMaxPoolGradReluAttr, true);
      rewritten.type_attrs = pool_grad.type_attrs;
      rewritten.defined_at = pool_grad.defined_at;
      changed = true;
    }
  }
  // Conv2D + bias without an activation: whatever BiasAdd/AddV2 is still there (a Relu above took
  // its own), unless a fusion above consumed it already (then it is unused).
  shapes = shape_readers(graph);
  uses = count_uses(graph, &shapes);
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node* conv = nullptr;
    Endpoint bias;
    if (uses[id] + static_cast<int>(shapes[id].size()) == 0 || graph.node(id).output_dtypes.size() != 1) continue;
    if (conv_plus_bias(graph, uses, Endpoint{id, 0}, &conv, &bias) && shape_readers_after(shapes, {conv->id}, id)) {
      const int conv_id = conv->id;
      rewrite_as_fused_conv(graph, id, *conv, bias, false);
      redirect_shape_readers(graph, shapes, {conv_id}, id);
      changed = true;
    }
  }
  return fuse_pooling(graph) || changed;
}

}  // namespace graphfn
