#include "graphfn/ir/op_def_text.h"

#include <cstdio>

#include "graphfn/core/tf_types.h"

namespace graphfn {
namespace {

std::string arg_text(const ArgDef& arg) {
  std::string out = arg.name + ":";
  if (!arg.number_attr.empty()) out += arg.number_attr + "*";
  out += arg.fixed_type != DType::kInvalid ? tf_type_string(static_cast<int>(arg.fixed_type)) : arg.type_attr;
  return out;
}

std::string args_text(const std::vector<ArgDef>& args) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + arg_text(args[i]);
  return out;
}

std::string float_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

std::string default_text(const AttrValue& v) {
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* f = std::get_if<double>(&v)) return float_text(*f);
  if (const auto* s = std::get_if<std::string>(&v)) return "\"" + *s + "\"";
  if (const auto* t = std::get_if<DType>(&v)) return tf_type_enum(static_cast<int>(*t));
  if (const auto* s = std::get_if<Shape>(&v)) return s->to_string();
  if (const auto* ints = std::get_if<std::vector<int64_t>>(&v)) {
    std::string text = "[";
    for (size_t i = 0; i < ints->size(); ++i) text += (i ? ", " : "") + std::to_string((*ints)[i]);
    return text + "]";
  }
  if (std::holds_alternative<std::vector<DType>>(v) ||
      std::holds_alternative<std::vector<Shape>>(v)) {
    return "[]";  // type and shape list defaults in op specs are always empty
  }
  return "<unknown>";
}

}  // namespace

std::string allowed_types_text(const AttrDef& attr, bool python_names) {
  std::string out;
  for (size_t i = 0; i < attr.tf_allowed.size(); ++i) {
    if (i) out += ", ";
    out += python_names ? tf_type_python(attr.tf_allowed[i]) : tf_type_string(attr.tf_allowed[i]);
  }
  return out;
}

std::string summarize_op_def(const OpDef& op) {
  std::string out = "Op<name=" + op.name + "; signature=" + args_text(op.inputs) + " -> " + args_text(op.outputs);
  for (const AttrDef& attr : op.attrs) {
    out += "; attr=" + attr.name + ":" + attr.kind;
    if (attr.has_default) out += ",default=" + default_text(attr.default_value);
    if (attr.has_minimum) out += ",min=" + std::to_string(attr.minimum);
    if (!attr.tf_allowed.empty()) {
      out += ",allowed=[";
      for (size_t i = 0; i < attr.tf_allowed.size(); ++i) out += (i ? ", " : "") + std::string(tf_type_enum(attr.tf_allowed[i]));
      out += "]";
    }
  }
  if (op.commutative) out += "; is_commutative=true";
  if (op.aggregate) out += "; is_aggregate=true";
  if (op.stateful) out += "; is_stateful=true";
  return out + ">";
}

}  // namespace graphfn
