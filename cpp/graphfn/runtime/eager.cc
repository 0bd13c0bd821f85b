#include "graphfn/runtime/eager.h"

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

constexpr int kMaxTypeAttrs = 8;

// TF's eager error text: "<message> [Op:AddV2] name: ".
Status with_op_suffix(const Status& s, const OpDef& op) {
  if (s.ok()) return s;
  return Status(s.code(), s.message() + " [Op:" + op.name + "] name: ");
}

// Errors from validation and kernels also carry TF's "{{function_node __wrapped__AddV2_...}}"
// prefix, which names the op that failed.
Status with_node_prefix(const Status& s, const OpDef& op) {
  if (s.ok()) return s;
  return with_op_suffix(Status(s.code(), "{{function_node __wrapped__" + op.name +
                                             "_device_/job:localhost/replica:0/task:0/device:CPU:0}} " +
                                             s.message()), op);
}

std::string allowed_list(const AttrDef& attr) {
  std::string out;
  for (size_t i = 0; i < attr.allowed.size(); ++i) {
    if (i) out += ", ";
    out += dtype_tf_string(attr.allowed[i]);
  }
  return out;
}

Status kernel_not_found(const OpDef& op, const DType* type_attrs) {
  std::string attrs;
  for (size_t i = 0; i < op.type_attr_names.size(); ++i) {
    attrs += (i ? ", " : "") + op.type_attr_names[i] + "=" + dtype_tf_enum(type_attrs[i]);
  }
  std::string registered;
  for (int d = 0; d < kNumDTypes; ++d) {
    if (op.kernels[d]) registered += std::string(registered.empty() ? "" : ", ") + dtype_tf_enum(DType(d));
  }
  return errors::NotFound("Could not find device for node: {{node ", op.name, "}} = ", op.name, "[",
                          attrs, "]\nAll kernels registered for op ", op.name, ":\n  device='CPU'; ",
                          op.kernel_type_attr, " in [", registered, "]");
}

}  // namespace

Status resolve_type_attrs(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                          DType* type_attrs, Status* input_mismatch) {
  const int n_types = static_cast<int>(op.type_attr_names.size());
  for (int i = 0; i < n_types; ++i) type_attrs[i] = attrs.get_type(op.type_attr_names[i], DType::kInvalid);

  // Walk the declared inputs; a list input takes all the tensors not claimed by the others.
  const int n_list = num_inputs - static_cast<int>(op.inputs.size()) + 1;
  int pos = 0;
  for (const ArgDef& arg : op.inputs) {
    const int count = arg.is_list() ? n_list : 1;
    for (int k = 0; k < count; ++k, ++pos) {
      const DType got = inputs[pos].dtype();
      DType want = arg.fixed_type;
      if (!arg.type_attr.empty()) {
        DType& slot = type_attrs[op.type_attr_index(arg.type_attr)];
        if (slot == DType::kInvalid) slot = got;
        want = slot;
      }
      if (got != want && input_mismatch->ok()) {
        *input_mismatch = errors::InvalidArgument("cannot compute ", op.name, " as input #", pos,
                                                  "(zero-based) was expected to be a ", dtype_tf_string(want),
                                                  " tensor but is a ", dtype_tf_string(got), " tensor");
      }
    }
  }
  for (int i = 0; i < n_types; ++i) {
    const AttrDef* attr = op.find_attr(op.type_attr_names[i]);
    if (type_attrs[i] == DType::kInvalid && attr->has_default) {
      type_attrs[i] = std::get<DType>(attr->default_value);
    }
    if (type_attrs[i] == DType::kInvalid) {
      return errors::InvalidArgument("Missing type attr '", attr->name, "' for op ", op.name);
    }
    if (!attr->allowed.empty()) {
      bool ok = false;
      for (DType a : attr->allowed) ok = ok || a == type_attrs[i];
      if (!ok) {
        return errors::InvalidArgument("Value for attr '", attr->name, "' of ",
                                       dtype_tf_string(type_attrs[i]),
                                       " is not in the list of allowed values: ", allowed_list(*attr),
                                       "\n\t; NodeDef: {{node ", op.name, "}}");
      }
    }
  }
  return Status::OK();
}

Status execute_eager(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                     std::vector<Tensor>* outputs) {
  int min_inputs = 0;
  bool has_list = false;
  for (const ArgDef& arg : op.inputs) {
    if (arg.is_list()) has_list = true; else ++min_inputs;
  }
  if (has_list ? num_inputs < min_inputs : num_inputs != min_inputs) {
    return with_op_suffix(errors::InvalidArgument(op.name, " expects ", has_list ? "at least " : "",
                                                  min_inputs, " inputs, got ", num_inputs), op);
  }
  if (op.type_attr_names.size() > kMaxTypeAttrs) return errors::Internal("too many type attrs");
  // TF's order: attr values are validated, then the kernel is looked up, then the inputs are
  // checked against the kernel's signature, and only then does the kernel validate shapes.
  DType type_attrs[kMaxTypeAttrs];
  Status input_mismatch;
  GRAPHFN_RETURN_IF_ERROR(
      with_op_suffix(resolve_type_attrs(op, inputs, num_inputs, attrs, type_attrs, &input_mismatch), op));
  const DType kernel_dtype = op.kernel_type_index < 0 ? DType::kInvalid : type_attrs[op.kernel_type_index];
  const KernelFn kernel = op.kernels[static_cast<int>(kernel_dtype)];
  if (!kernel) return with_op_suffix(kernel_not_found(op, type_attrs), op);
  GRAPHFN_RETURN_IF_ERROR(with_op_suffix(input_mismatch, op));

  InferenceContext ic(op, inputs, num_inputs, attrs, type_attrs);
  if (op.shape_fn) GRAPHFN_RETURN_IF_ERROR(with_node_prefix(op.shape_fn(ic), op));

  outputs->clear();
  outputs->resize(ic.num_outputs());
  KernelContext kc{op, inputs, num_inputs, attrs, type_attrs, ic.output_dtypes(), ic.output_shapes(), outputs};
  return with_node_prefix(kernel(kc), op);
}

Status execute_eager(const std::string& op_name, const std::vector<Tensor>& inputs,
                     const AttrMap& attrs, std::vector<Tensor>* outputs) {
  const OpDef* op = OpRegistry::global().find(op_name);
  if (!op) return errors::NotFound("Op type not registered '", op_name, "'");
  return execute_eager(*op, inputs.data(), static_cast<int>(inputs.size()), attrs, outputs);
}

}  // namespace graphfn
