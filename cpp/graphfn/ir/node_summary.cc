#include "graphfn/ir/node_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace graphfn {
namespace {

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", v);
  return buffer;
}

template <typename T, typename Fn>
std::string list(const std::vector<T>& items, Fn&& item) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += item(items[i]);
  }
  return out + "]";
}

std::string shape_text(const Shape& s) { return s.known_rank() ? s.to_string() : "?"; }

// TF's SummarizeAttrValue, for the kinds graph ops carry.
std::string attr_text(const AttrValue& v) {
  struct Visitor {
    std::string operator()(std::monostate) const { return ""; }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return number(d); }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
    std::string operator()(DType t) const { return dtype_tf_enum(t); }
    std::string operator()(const Shape& s) const { return s.known_rank() ? s.to_string() : "<unknown>"; }
    std::string operator()(const std::vector<int64_t>& l) const {
      return list(l, [](int64_t i) { return std::to_string(i); });
    }
    std::string operator()(const Tensor& t) const { return std::string("<Tensor ") + dtype_name(t.dtype()) + " " + t.shape().to_string() + ">"; }
    std::string operator()(const std::vector<DType>& l) const { return list(l, [](DType t) { return dtype_tf_enum(t); }); }
    std::string operator()(const std::vector<Shape>& l) const { return list(l, [](const Shape& s) { return s.to_string(); }); }
    std::string operator()(const FuncAttr& f) const { return f.name; }
    std::string operator()(const std::vector<FuncAttr>& l) const { return list(l, [](const FuncAttr& f) { return f.name; }); }
  };
  return std::visit(Visitor{}, v);
}

// TF's Tensor::SummarizeValue: the elements separated by spaces (the first 10 of a long tensor).
std::string value_text(const Tensor& t) {
  std::string out;
  const int64_t n = std::min<int64_t>(t.num_elements(), 10);
  for (int64_t i = 0; i < n; ++i) {
    if (i) out += " ";
    switch (t.dtype()) {
      case DType::kInt32: out += std::to_string(t.data<int32_t>()[i]); break;
      case DType::kInt64: out += std::to_string(t.data<int64_t>()[i]); break;
      case DType::kFloat32: out += number(t.data<float>()[i]); break;
      case DType::kFloat64: out += number(t.data<double>()[i]); break;
      case DType::kBool: out += t.data<bool>()[i] ? "1" : "0"; break;
      default: return out + "...";
    }
  }
  return t.num_elements() > n ? out + "..." : out;
}

}  // namespace

std::string node_summary(const OpDef& op, const std::string& name, const std::vector<std::string>& input_names,
                         const AttrMap& attrs) {
  std::map<std::string, std::string> shown;  // sorted by name, as TF prints them
  for (const AttrDef& def : op.attrs) {
    if (def.has_default) shown[def.name] = attr_text(def.default_value);
  }
  for (const auto& [attr, value] : attrs.items()) {
    if (!attr.empty() && attr[0] != '_') shown[attr] = attr_text(value);
  }
  for (const ArgDef& arg : op.inputs) {  // list lengths are inferred from the inputs
    if (!arg.number_attr.empty() && !attrs.find(arg.number_attr)) {
      shown[arg.number_attr] = std::to_string(input_names.size() - (op.inputs.size() - 1));
    }
  }
  std::string out = "{{node " + name + "}} = " + op.name + "[";
  bool first = true;
  for (const auto& [attr, text] : shown) {
    out += (first ? "" : ", ") + attr + "=" + text;
    first = false;
  }
  out += "](";
  for (size_t i = 0; i < input_names.size(); ++i) out += (i ? ", " : "") + input_names[i];
  return out + ")";
}

std::string shape_error_message(const std::string& message, const std::string& summary, const InputInfo* inputs,
                                int num_inputs, const std::vector<int>& value_inputs,
                                const std::vector<std::pair<int, Shape>>& partial_shapes) {
  std::string out = message + " for '" + summary + "' with input shapes: ";
  for (int i = 0; i < num_inputs; ++i) out += (i ? ", " : "") + shape_text(*inputs[i].shape);
  if (!value_inputs.empty()) {
    out += " and with computed input tensors: ";
    for (size_t k = 0; k < value_inputs.size(); ++k) {
      const int i = value_inputs[k];
      out += (k ? ", " : "") + std::string("input[") + std::to_string(i) + "] = <" + value_text(*inputs[i].value) + ">";
    }
  }
  if (!partial_shapes.empty()) {
    out += " and with input tensors computed as partial shapes: ";
    for (size_t k = 0; k < partial_shapes.size(); ++k) {
      const auto& [i, shape] = partial_shapes[k];
      out += (k ? ", " : "") + std::string("input[") + std::to_string(i) + "] = " + shape_text(shape);
    }
  }
  return out + ".";
}

}  // namespace graphfn
