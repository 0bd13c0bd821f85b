#include "graphfn/core/attr_value.h"

namespace graphfn {

void AttrMap::set(const std::string& name, AttrValue value) {
  for (auto& item : items_) {
    if (item.first == name) {
      item.second = std::move(value);
      return;
    }
  }
  items_.emplace_back(name, std::move(value));
}

const AttrValue* AttrMap::find(const std::string& name) const {
  for (const auto& item : items_) {
    if (item.first == name) return &item.second;
  }
  return nullptr;
}

int64_t AttrMap::get_int(const std::string& name, int64_t fallback) const {
  const AttrValue* v = find(name);
  if (v && std::holds_alternative<int64_t>(*v)) return std::get<int64_t>(*v);
  if (v && std::holds_alternative<bool>(*v)) return std::get<bool>(*v);
  return fallback;
}

double AttrMap::get_float(const std::string& name, double fallback) const {
  const AttrValue* v = find(name);
  if (v && std::holds_alternative<double>(*v)) return std::get<double>(*v);
  if (v && std::holds_alternative<int64_t>(*v)) return static_cast<double>(std::get<int64_t>(*v));
  return fallback;
}

bool AttrMap::get_bool(const std::string& name, bool fallback) const {
  const AttrValue* v = find(name);
  if (v && std::holds_alternative<bool>(*v)) return std::get<bool>(*v);
  if (v && std::holds_alternative<int64_t>(*v)) return std::get<int64_t>(*v) != 0;
  return fallback;
}

DType AttrMap::get_type(const std::string& name, DType fallback) const {
  const AttrValue* v = find(name);
  if (v && std::holds_alternative<DType>(*v)) return std::get<DType>(*v);
  return fallback;
}

const std::string* AttrMap::get_string(const std::string& name) const {
  const AttrValue* v = find(name);
  return v && std::holds_alternative<std::string>(*v) ? &std::get<std::string>(*v) : nullptr;
}

const std::vector<int64_t>* AttrMap::get_int_list(const std::string& name) const {
  const AttrValue* v = find(name);
  return v && std::holds_alternative<std::vector<int64_t>>(*v) ? &std::get<std::vector<int64_t>>(*v)
                                                               : nullptr;
}

const Tensor* AttrMap::get_tensor(const std::string& name) const {
  const AttrValue* v = find(name);
  return v && std::holds_alternative<Tensor>(*v) ? &std::get<Tensor>(*v) : nullptr;
}

const std::vector<DType>* AttrMap::get_type_list(const std::string& name) const {
  const AttrValue* v = find(name);
  return v && std::holds_alternative<std::vector<DType>>(*v) ? &std::get<std::vector<DType>>(*v) : nullptr;
}

const std::vector<Shape>* AttrMap::get_shape_list(const std::string& name) const {
  const AttrValue* v = find(name);
  return v && std::holds_alternative<std::vector<Shape>>(*v) ? &std::get<std::vector<Shape>>(*v) : nullptr;
}

const FuncAttr* AttrMap::get_func(const std::string& name) const {
  const AttrValue* v = find(name);
  return v && std::holds_alternative<FuncAttr>(*v) ? &std::get<FuncAttr>(*v) : nullptr;
}

const std::vector<FuncAttr>* AttrMap::get_func_list(const std::string& name) const {
  const AttrValue* v = find(name);
  return v && std::holds_alternative<std::vector<FuncAttr>>(*v) ? &std::get<std::vector<FuncAttr>>(*v) : nullptr;
}

}  // namespace graphfn
