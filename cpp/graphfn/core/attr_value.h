// AttrValue: the value of an op attribute (TF's attrs: T, transpose_a, keep_dims, axis, ...).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "graphfn/core/dtype.h"
#include "graphfn/core/shape.h"
#include "graphfn/core/tensor.h"

namespace graphfn {

using AttrValue = std::variant<std::monostate, int64_t, double, bool, std::string, DType, Shape,
                               std::vector<int64_t>, Tensor>;

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

 private:
  std::vector<std::pair<std::string, AttrValue>> items_;
};

}  // namespace graphfn
