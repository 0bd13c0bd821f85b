#include "graphfn/ir/type_check.h"

#include <algorithm>

#include "graphfn/ir/op_def_text.h"

namespace graphfn {

Status check_input_count(const OpDef& op, int num_inputs) {
  if (op.has_list_input ? num_inputs < op.num_fixed_inputs : num_inputs != op.num_fixed_inputs) {
    return errors::InvalidArgument(op.name, " expects ", op.has_list_input ? "at least " : "",
                                   op.num_fixed_inputs, " inputs, got ", num_inputs);
  }
  if (op.type_attr_names.size() > kMaxTypeAttrs) return errors::Internal("too many type attrs");
  return Status::OK();
}

Status resolve_type_attrs(const OpDef& op, const DType* input_dtypes, int num_inputs,
                          const AttrMap& attrs, DType* type_attrs, Status* input_mismatch, std::string* graph_text) {
  const std::string* inferred_from[kMaxTypeAttrs] = {};  // the argument that set each type attr
  auto check_allowed = [&](int i) {
    const AttrDef* attr = op.type_attr_defs[i];
    if (attr->tf_allowed.empty() ||
        std::find(attr->allowed.begin(), attr->allowed.end(), type_attrs[i]) != attr->allowed.end()) {
      return Status::OK();
    }
    // Graph building words it as TF's Python op wrappers do, naming the argument.
    if (graph_text && graph_text->empty() && inferred_from[i]) {
      *graph_text = "Value passed to parameter '" + *inferred_from[i] + "' has DataType " +
                    dtype_name(type_attrs[i]) + " not in list of allowed values: " + allowed_types_text(*attr, true);
    }
    return errors::InvalidArgument("Value for attr '", attr->name, "' of ", dtype_tf_string(type_attrs[i]),
                                   " is not in the list of allowed values: ", allowed_types_text(*attr),
                                   "\n\t; NodeDef: {{node ", op.name, "}}; ", summarize_op_def(op));
  };
  const int n_types = static_cast<int>(op.type_attr_names.size());
  for (int i = 0; i < n_types; ++i) {
    type_attrs[i] = attrs.empty() ? DType::kInvalid : attrs.get_type(op.type_attr_names[i], DType::kInvalid);
  }
  // Walk the declared inputs; a list input takes all the tensors not claimed by the others.
  const int n_list = num_inputs - op.num_fixed_inputs;
  int pos = 0;
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    const ArgDef& arg = op.inputs[k];
    const int type_index = op.input_type_index[k];
    const int count = arg.is_list() ? n_list : 1;
    for (int j = 0; j < count; ++j, ++pos) {
      if (arg.type_list) continue;  // any dtypes
      const DType got = input_dtypes[pos];
      DType want = arg.fixed_type;
      if (type_index >= 0) {
        DType& slot = type_attrs[type_index];
        if (slot == DType::kInvalid) {
          slot = got;
          inferred_from[type_index] = &arg.name;
          // Graph building checks a type attr as soon as an input decides it (before later
          // inputs can mismatch); eager execution reports the attr first anyway.
          if (!input_mismatch) GRAPHFN_RETURN_IF_ERROR(check_allowed(type_index));
        }
        want = slot;
      }
      if (got != want) {
        if (graph_text && graph_text->empty()) {
          *graph_text = "Input '" + arg.name + "' of '" + op.name + "' Op has type " + dtype_name(got) +
                        " that does not match " +
                        (type_index >= 0 && inferred_from[type_index]
                             ? "type " + std::string(dtype_name(want)) + " of argument '" + *inferred_from[type_index] + "'."
                             : "expected type of " + std::string(dtype_name(want)) + ".");
        }
        Status mismatch = errors::InvalidArgument("cannot compute ", op.name, " as input #", pos,
                                                  "(zero-based) was expected to be a ", dtype_tf_string(want),
                                                  " tensor but is a ", dtype_tf_string(got), " tensor");
        if (!input_mismatch) return mismatch;
        if (input_mismatch->ok()) *input_mismatch = mismatch;
      }
    }
  }
  for (int i = 0; i < n_types; ++i) {
    const AttrDef* attr = op.type_attr_defs[i];
    if (type_attrs[i] == DType::kInvalid && attr->has_default) {
      type_attrs[i] = std::get<DType>(attr->default_value);
    }
    if (type_attrs[i] == DType::kInvalid) {
      return errors::InvalidArgument("Missing type attr '", attr->name, "' for op ", op.name);
    }
    GRAPHFN_RETURN_IF_ERROR(check_allowed(i));
  }
  return Status::OK();
}

}  // namespace graphfn
