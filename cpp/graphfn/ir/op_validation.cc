#include "graphfn/ir/op_validation.h"

#include <climits>

#include "graphfn/core/tf_types.h"
#include "graphfn/ir/attr_check.h"
#include "graphfn/ir/op_def_text.h"
#include "graphfn/ir/type_check.h"

namespace graphfn {
namespace {

// TF's eager wording ends with the node and the op's summary.
Status invalid_attr(const OpDef& op, const std::string& text) {
  return errors::InvalidArgument(text, "\n\t; NodeDef: {{node ", op.name, "}}; ", summarize_op_def(op));
}

Status check_dtype(const OpDef& op, const std::string& attr, DType dt) {
  DType checked;
  return dtype_from_code(op, attr, static_cast<int64_t>(dt), &checked);
}

// The length a list attr holds, or -1 for other kinds.
int64_t list_length(const AttrValue& value) {
  if (const auto* v = std::get_if<std::vector<int64_t>>(&value)) return static_cast<int64_t>(v->size());
  if (const auto* v = std::get_if<std::vector<DType>>(&value)) return static_cast<int64_t>(v->size());
  if (const auto* v = std::get_if<std::vector<Shape>>(&value)) return static_cast<int64_t>(v->size());
  if (const auto* v = std::get_if<std::vector<FuncAttr>>(&value)) return static_cast<int64_t>(v->size());
  return -1;
}

Status check_attr_value(const OpDef& op, const AttrDef& def, const AttrValue& value, std::string* graph_text) {
  const char* kind = attr_kind(value);
  if (def.kind != kind) {
    return errors::InvalidArgument("attr '", def.name, "' of ", op.name, " must be a ", def.kind, ", got ",
                                   *kind ? kind : "no value");
  }
  if (const DType* dt = std::get_if<DType>(&value)) {
    // kInvalid is "not given": resolve_type_attrs then infers or reports the attr as missing.
    if (*dt != DType::kInvalid) GRAPHFN_RETURN_IF_ERROR(check_dtype(op, def.name, *dt));
  } else if (const auto* dts = std::get_if<std::vector<DType>>(&value)) {
    for (DType d : *dts) GRAPHFN_RETURN_IF_ERROR(check_dtype(op, def.name, d));
  }
  if (!def.has_minimum) return Status::OK();
  if (const int64_t* n = std::get_if<int64_t>(&value)) {
    if (*n >= def.minimum) return Status::OK();
    if (graph_text) {
      *graph_text = "Attr '" + def.name + "' of '" + op.name + "' Op passed " + std::to_string(*n) +
                    " less than minimum " + std::to_string(def.minimum) + ".";
    }
    return invalid_attr(op, "Value for attr '" + def.name + "' of " + std::to_string(*n) +
                                " must be at least minimum " + std::to_string(def.minimum));
  }
  const int64_t length = list_length(value);
  if (length < 0 || length >= def.minimum) return Status::OK();
  return invalid_attr(op, "Length for attr '" + def.name + "' of " + std::to_string(length) +
                              " must be at least minimum " + std::to_string(def.minimum));
}

// A list input's length against its number attr or list(type) attr.
Status check_list_input(const OpDef& op, const ArgDef& arg, const DType* dtypes, int64_t length, const AttrMap& attrs,
                        std::string* graph_text) {
  const std::string& attr = arg.type_list ? arg.type_attr : arg.number_attr;
  const AttrDef* def = op.find_attr(attr);
  const AttrValue* given = attrs.find(attr);
  if (arg.type_list && given) {
    const auto* declared = std::get_if<std::vector<DType>>(given);
    if (declared && (static_cast<int64_t>(declared->size()) != length ||
                     !std::equal(declared->begin(), declared->end(), dtypes))) {
      return errors::InvalidArgument("attr '", attr, "' of ", op.name, " does not list the dtypes of its '",
                                     arg.name, "' inputs");
    }
  } else if (given) {
    const int64_t* n = std::get_if<int64_t>(given);
    if (n && *n != length) {
      return errors::InvalidArgument("attr '", attr, "' of ", op.name, " is ", *n, " but the node has ", length, " '",
                                     arg.name, "' inputs");
    }
  }
  if (!def || !def->has_minimum || length >= def->minimum) return Status::OK();
  if (graph_text && arg.type_list) {
    *graph_text = "Attr '" + attr + "' of '" + op.name + "' Op passed list of length " + std::to_string(length) +
                  " less than minimum " + std::to_string(def->minimum) + ".";
  } else if (graph_text) {
    *graph_text = "List argument '" + arg.name + "' to '" + op.name + "' Op with length " + std::to_string(length) +
                  " shorter than minimum length " + std::to_string(def->minimum) + ".";
  }
  return invalid_attr(op, std::string(arg.type_list ? "Length" : "Value") + " for attr '" + attr + "' of " +
                              std::to_string(length) + " must be at least minimum " + std::to_string(def->minimum));
}

}  // namespace

Status dtype_from_code(const OpDef& op, const std::string& attr, int64_t code, DType* out) {
  const DType dt = code > 0 && code < kNumTfDataTypes ? tf_type_to_dtype(static_cast<int>(code)) : DType::kInvalid;
  if (dt != DType::kInvalid) {
    *out = dt;
    return Status::OK();
  }
  if (code > 0 && code < kNumTfDataTypes) {
    return errors::InvalidArgument("graphfn has no ", tf_type_python(static_cast<int>(code)), " tensors (DataType ",
                                   code, ") for attr '", attr, "' of ", op.name);
  }
  // TF reads the number as a 32-bit enum: 0 and numbers past it name no DataType at all.
  const std::string number = code == 0 || code < INT_MIN || code > INT_MAX ? "" : " enum: " + std::to_string(code);
  return invalid_attr(op, "AttrValue has invalid DataType" + number + "\n\t for attr '" + attr + "'");
}

int expected_num_outputs(const OpDef& op, const AttrMap& attrs) {
  // A While node also outputs what its body accumulates for gradients; the verifier checks
  // control-flow nodes against their functions.
  if (op.control_flow != OpDef::ControlFlow::kNone) return -1;
  int64_t total = 0;
  for (const ArgDef& arg : op.outputs) {
    if (!arg.is_list()) {
      ++total;
      continue;
    }
    const AttrValue* value = attrs.find(arg.type_list ? arg.type_attr : arg.number_attr);
    if (!value) return -1;
    const int64_t* number = std::get_if<int64_t>(value);
    const int64_t n = arg.type_list ? list_length(*value) : number ? *number : -1;
    if (n < 0) return -1;
    total += n;
  }
  return total > INT_MAX ? -1 : static_cast<int>(total);
}

Status validate_op_call(const OpDef& op, const DType* input_dtypes, int num_inputs, const AttrMap& attrs,
                        std::string* graph_text) {
  GRAPHFN_RETURN_IF_ERROR(check_input_count(op, num_inputs));
  for (const auto& [name, value] : attrs.items()) {
    if (!name.empty() && name[0] == '_') continue;
    const AttrDef* def = op.find_attr(name);
    if (!def) return errors::InvalidArgument("op ", op.name, " has no attr named '", name, "'");
    GRAPHFN_RETURN_IF_ERROR(check_attr_value(op, *def, value, graph_text));
  }
  const int64_t n_list = num_inputs - op.num_fixed_inputs;
  int pos = 0;
  for (const ArgDef& arg : op.inputs) {
    if (arg.is_list()) {
      GRAPHFN_RETURN_IF_ERROR(check_list_input(op, arg, input_dtypes + pos, n_list, attrs, graph_text));
      pos += static_cast<int>(n_list);
    } else {
      ++pos;
    }
  }
  for (const ArgDef& arg : op.outputs) {
    if (arg.number_attr.empty()) continue;
    const AttrValue* value = attrs.find(arg.number_attr);
    if (!value) return errors::InvalidArgument(op.name, " needs attr '", arg.number_attr, "'");
    const int64_t* n = std::get_if<int64_t>(value);
    if (n && *n > kMaxListOutputs) {
      const std::string text = "Number of outputs is too big: " + std::to_string(*n);  // TF's words
      if (graph_text) *graph_text = text;
      return errors::InvalidArgument(text);
    }
    if (!n || *n < 0) {
      return errors::InvalidArgument("attr '", arg.number_attr, "' of ", op.name, " is ", n ? *n : -1, ", outside [0, ",
                                     kMaxListOutputs, "]");
    }
  }
  for (const AttrDef& def : op.attrs) {
    if (def.kind == "type" || def.has_default || attrs.find(def.name)) continue;
    // A number or list(type) attr of an input list is decided by the list.
    bool decided_by_inputs = false;
    for (const ArgDef& arg : op.inputs) {
      decided_by_inputs = decided_by_inputs || arg.number_attr == def.name || (arg.type_list && arg.type_attr == def.name);
    }
    if (!decided_by_inputs) return errors::InvalidArgument(op.name, " needs attr '", def.name, "'");
  }
  if (op.control_flow == OpDef::ControlFlow::kWhile && num_inputs == 0) {
    return errors::InvalidArgument(op.name, " needs at least one loop variable");
  }
  return Status::OK();
}

}  // namespace graphfn
