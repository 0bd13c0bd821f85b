#include "graphfn/runtime/eager.h"

#include <algorithm>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {

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

namespace {

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

Status resolve_type_attrs(const OpDef& op, const DType* input_dtypes, int num_inputs,
                          const AttrMap& attrs, DType* type_attrs) {
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
      const DType got = input_dtypes[pos];
      DType want = arg.fixed_type;
      if (type_index >= 0) {
        DType& slot = type_attrs[type_index];
        if (slot == DType::kInvalid) slot = got;
        want = slot;
      }
      if (got != want) {
        return errors::InvalidArgument("cannot compute ", op.name, " as input #", pos,
                                       "(zero-based) was expected to be a ", dtype_tf_string(want),
                                       " tensor but is a ", dtype_tf_string(got), " tensor");
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
    if (!attr->allowed.empty() &&
        std::find(attr->allowed.begin(), attr->allowed.end(), type_attrs[i]) == attr->allowed.end()) {
      return errors::InvalidArgument("Value for attr '", attr->name, "' of ", dtype_tf_string(type_attrs[i]),
                                     " is not in the list of allowed values: ", allowed_list(*attr),
                                     "\n\t; NodeDef: {{node ", op.name, "}}");
    }
  }
  return Status::OK();
}

Status check_input_count(const OpDef& op, int num_inputs) {
  if (op.has_list_input ? num_inputs < op.num_fixed_inputs : num_inputs != op.num_fixed_inputs) {
    return errors::InvalidArgument(op.name, " expects ", op.has_list_input ? "at least " : "",
                                   op.num_fixed_inputs, " inputs, got ", num_inputs);
  }
  if (op.type_attr_names.size() > kMaxTypeAttrs) return errors::Internal("too many type attrs");
  return Status::OK();
}

Status find_kernel(const OpDef& op, const DType* type_attrs, KernelFn* kernel) {
  const DType kernel_dtype = op.kernel_type_index < 0 ? DType::kInvalid : type_attrs[op.kernel_type_index];
  *kernel = op.kernels[static_cast<int>(kernel_dtype)];
  return *kernel ? Status::OK() : kernel_not_found(op, type_attrs);
}

Status run_kernel(const OpDef& op, KernelFn kernel, const Tensor* inputs, int num_inputs,
                  const AttrMap& attrs, const DType* type_attrs, std::vector<Tensor>* outputs) {
  // Reuse one thread-local scratch for the shape function's results (no allocation per op);
  // a nested call (a kernel that runs ops) falls back to its own.
  thread_local InferenceOutputs scratch;
  thread_local bool scratch_busy = false;
  InferenceOutputs local;
  const bool use_scratch = !scratch_busy;
  InferenceOutputs* shapes = use_scratch ? &scratch : &local;
  struct Release {
    bool active;
    ~Release() { if (active) scratch_busy = false; }
  } release{use_scratch};
  scratch_busy = true;

  InferenceContext ic(op, inputs, num_inputs, attrs, type_attrs, shapes);
  if (op.shape_fn) GRAPHFN_RETURN_IF_ERROR(op.shape_fn(ic));
  outputs->resize(ic.num_outputs());
  KernelContext kc{op, inputs, num_inputs, attrs, type_attrs, ic.output_dtypes(), ic.output_shapes(), outputs};
  return kernel(kc);
}

Status execute_eager(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                     std::vector<Tensor>* outputs) {
  GRAPHFN_RETURN_IF_ERROR(with_op_suffix(check_input_count(op, num_inputs), op));
  DType input_dtypes[16];
  std::vector<DType> many;
  DType* dtypes = input_dtypes;
  if (num_inputs > 16) {
    many.resize(num_inputs);
    dtypes = many.data();
  }
  for (int i = 0; i < num_inputs; ++i) dtypes[i] = inputs[i].dtype();
  DType type_attrs[kMaxTypeAttrs];
  GRAPHFN_RETURN_IF_ERROR(with_op_suffix(resolve_type_attrs(op, dtypes, num_inputs, attrs, type_attrs), op));
  KernelFn kernel = nullptr;
  GRAPHFN_RETURN_IF_ERROR(with_op_suffix(find_kernel(op, type_attrs, &kernel), op));
  return with_node_prefix(run_kernel(op, kernel, inputs, num_inputs, attrs, type_attrs, outputs), op);
}

Status execute_eager(const std::string& op_name, const std::vector<Tensor>& inputs,
                     const AttrMap& attrs, std::vector<Tensor>* outputs) {
  const OpDef* op = OpRegistry::global().find(op_name);
  if (!op) return errors::NotFound("Op type not registered '", op_name, "'");
  return execute_eager(*op, inputs.data(), static_cast<int>(inputs.size()), attrs, outputs);
}

}  // namespace graphfn
