// AttrValue: the value of an op attribute (TF's attrs: T, transpose_a, keep_dims, axis, ...).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "graphfn/core/dtype.h"
#include "graphfn/core/shape.h"
#include "graphfn/core/tensor.h"

namespace graphfn {

class Graph;

// A function-valued attr (If's branches, While's cond and body): a subgraph the node owns, with
// its arguments and results, and its name in the function library ("cond_true_12"). Subgraphs
// are immutable once built; an optimized copy replaces the attr's graph.
struct FuncAttr {
  std::string name;
  std::shared_ptr<const Graph> graph;
  bool operator==(const FuncAttr& o) const { return name == o.name && graph == o.graph; }
};

using AttrValue = std::variant<std::monostate, int64_t, double, bool, std::string, DType, Shape,
                               std::vector<int64_t>, Tensor, std::vector<DType>, std::vector<Shape>, FuncAttr,
                               std::vector<FuncAttr>>;

// Calls fn(const FuncAttr&) for the functions an attr value holds: a func, or a list(func)'s.
template <typename Fn>
void for_each_func(const AttrValue& v, Fn&& fn) {
  if (const auto* f = std::get_if<FuncAttr>(&v)) {
    fn(*f);
  } else if (const auto* list = std::get_if<std::vector<FuncAttr>>(&v)) {
    for (const FuncAttr& g : *list) fn(g);
  }
}

// A small ordered name -> value map; ops have few attrs, so a linear scan beats hashing.
class AttrMap {
 public:
  void set(const std::string& name, AttrValue value);
  const AttrValue* find(const std::string& name) const;
  bool empty() const { return items_.empty(); }
  const std::vector<std::pair<std::string, AttrValue>>& items() const { return items_; }

  int64_t get_int(const std::string& name, int64_t fallback) const;
  double get_float(const std::string& name, double fallback) const;
  bool get_bool(const std::string& name, bool fallback) const;
  DType get_type(const std::string& name, DType fallback) const;
  const std::string* get_string(const std::string& name) const;
  const std::vector<int64_t>* get_int_list(const std::string& name) const;
  const Tensor* get_tensor(const std::string& name) const;
  const std::vector<DType>* get_type_list(const std::string& name) const;
  const std::vector<Shape>* get_shape_list(const std::string& name) const;
  const FuncAttr* get_func(const std::string& name) const;
  const std::vector<FuncAttr>* get_func_list(const std::string& name) const;

 private:
  std::vector<std::pair<std::string, AttrValue>> items_;
};

}  // namespace graphfn
