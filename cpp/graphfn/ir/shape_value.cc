#include "graphfn/ir/shape_value.h"

#include <vector>

#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

constexpr int64_t kUnknown = -1;
constexpr int kMaxDepth = 16;     // shape vectors are built by a few ops; stop on anything deeper
constexpr int64_t kMaxRank = 64;  // longer vectors are not shapes worth deriving

std::optional<Shape> value_of(const Graph& graph, Endpoint e, int depth);

bool constant_ints(const Node& node, std::vector<int64_t>* values) {
  const Tensor* t = node.const_value();
  return t && (t->dtype() == DType::kInt32 || t->dtype() == DType::kInt64) && t->num_elements() <= kMaxRank && tensor_to_int64s(*t, values).ok();
}

// One dimension from a scalar: a constant, or element i of a Shape (`tf.shape(x)[i]`).
int64_t scalar_dim(const Graph& graph, Endpoint e, int depth) {
  const Node& node = graph.node(e.node);
  std::vector<int64_t> values;
  if (constant_ints(node, &values)) return values.size() == 1 && values[0] >= 0 ? values[0] : kUnknown;
  if (node.op->name != "StridedSlice" || node.attrs.get_int("shrink_axis_mask", 0) != 1 ||
      node.attrs.get_int("begin_mask", 0) != 0 || node.attrs.get_int("ellipsis_mask", 0) != 0 ||
      node.attrs.get_int("new_axis_mask", 0) != 0) {
    return kUnknown;
  }
  std::vector<int64_t> begin;
  if (!constant_ints(graph.node(node.inputs[1].node), &begin) || begin.size() != 1) return kUnknown;
  const std::optional<Shape> vector = value_of(graph, node.inputs[0], depth + 1);
  if (!vector || !vector->known_rank()) return kUnknown;
  int64_t i = begin[0] < 0 ? begin[0] + vector->rank() : begin[0];
  return i >= 0 && i < vector->rank() ? vector->dim(static_cast<int>(i)) : kUnknown;
}

std::optional<Shape> value_of(const Graph& graph, Endpoint e, int depth) {
  if (depth > kMaxDepth) return std::nullopt;
  const Node& node = graph.node(e.node);
  const std::string& op = node.op->name;
  std::vector<int64_t> values;
  if (constant_ints(node, &values)) {
    for (int64_t& v : values) v = v >= 0 ? v : kUnknown;
    return Shape(std::move(values));
  }
  if (op == "Shape" && graph.shape(node.inputs[0]).known_rank()) return graph.shape(node.inputs[0]);
  if (op == "Pack" && node.attrs.get_int("axis", 0) == 0) {
    std::vector<int64_t> dims;
    for (const Endpoint& in : node.inputs) dims.push_back(scalar_dim(graph, in, depth));
    return Shape(std::move(dims));
  }
  if (op == "ConcatV2") {
    std::vector<int64_t> dims;
    for (size_t k = 0; k + 1 < node.inputs.size(); ++k) {
      const std::optional<Shape> part = value_of(graph, node.inputs[k], depth + 1);
      if (!part || !part->known_rank()) return std::nullopt;
      for (int d = 0; d < part->rank(); ++d) dims.push_back(part->dim(d));
      if (static_cast<int64_t>(dims.size()) > kMaxRank) return std::nullopt;
    }
    return Shape(std::move(dims));
  }
  // Only the length may be known: the vector's own static shape.
  const Shape& own = graph.shape(e);
  if (own.known_rank() && own.rank() == 1 && own.dim(0) >= 0 && own.dim(0) <= kMaxRank) {
    return Shape(std::vector<int64_t>(static_cast<size_t>(own.dim(0)), kUnknown));
  }
  return std::nullopt;
}

}  // namespace

std::optional<Shape> partial_shape_value(const Graph& graph, Endpoint e) { return value_of(graph, e, 0); }

}  // namespace graphfn
