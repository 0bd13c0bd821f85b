#include "graphfn/kernels/eager.h"

#include <algorithm>
#include <new>
#include <string>

#include "graphfn/core/per_thread.h"
#include "graphfn/core/thread_pool.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/op_validation.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {

// TF's eager error text: "<message> [Op:AddV2] name: ".
Status with_op_suffix(const Status& s, const OpDef& op) {
  if (s.ok()) return s;
  return Status(s.code(), s.message() + " [Op:" + op.name + "] name: ");
}

std::string function_name(const OpDef& op, int num_inputs, const AttrMap& attrs) {
  std::string name = op.name;
  const int n_list = num_inputs - op.num_fixed_inputs;
  for (const ArgDef& arg : op.inputs) {
    if (!arg.number_attr.empty()) name += "_" + arg.number_attr + "_" + std::to_string(n_list);
  }
  for (const ArgDef& arg : op.outputs) {
    if (!arg.number_attr.empty()) {
      name += "_" + arg.number_attr + "_" + std::to_string(attrs.get_int(arg.number_attr, 0));
    }
  }
  return name;
}

Status with_node_prefix(const Status& s, const OpDef& op, const std::string& function) {
  if (s.ok()) return s;
  return with_op_suffix(Status(s.code(), "{{function_node __wrapped__" + function +
                                             "_device_/job:localhost/replica:0/task:0/device:CPU:0}} " +
                                             s.message()), op);
}

namespace {

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

Status find_kernel(const OpDef& op, const DType* type_attrs, KernelFn* kernel) {
  const DType kernel_dtype = op.kernel_type_index < 0 ? DType::kInvalid : type_attrs[op.kernel_type_index];
  // validate_op_call keeps type attrs within the table; a caller that skipped it gets an error.
  const int index = static_cast<int>(kernel_dtype);
  *kernel = index < kNumDTypes ? op.kernels[index] : nullptr;
  return *kernel ? Status::OK() : kernel_not_found(op, type_attrs);
}

Status kernel_out_of_memory(const std::vector<DType>& dtypes, const std::vector<Shape>& shapes) {
  size_t largest = 0;
  double largest_bytes = -1;
  for (size_t i = 0; i < shapes.size() && i < dtypes.size(); ++i) {
    double bytes = static_cast<double>(dtype_size(dtypes[i]));
    for (int d = 0; d < shapes[i].rank(); ++d) bytes *= static_cast<double>(shapes[i].dim(d));
    if (bytes > largest_bytes) largest = i, largest_bytes = bytes;
  }
  if (largest_bytes < 0) return errors::ResourceExhausted("OOM when allocating a kernel's scratch memory");
  std::string dims;
  for (int d = 0; d < shapes[largest].rank(); ++d) dims += (d ? "," : "") + std::to_string(shapes[largest].dim(d));
  return errors::ResourceExhausted("OOM when allocating tensor with shape[", dims, "] and type ",
                                   dtype_tf_string(dtypes[largest]),
                                   " on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu");
}

namespace {

// Eager programs repeat calls: the same op on the same input dtypes, with no attrs, validates
// and resolves to the same type attrs and kernel every time (all of it is a function of the op,
// the input count and dtypes, and the attrs). Each thread remembers its last resolutions, so a
// repeated call skips validation and resolution (a third of a scalar add's C++ time).
struct ResolvedCall {
  static constexpr int kMaxInputs = 4;
  const OpDef* op = nullptr;
  int num_inputs = 0;
  DType dtypes[kMaxInputs] = {};
  DType type_attrs[kMaxTypeAttrs] = {};
  KernelFn kernel = nullptr;

  bool matches(const OpDef& o, const DType* in, int n) const {
    if (op != &o || num_inputs != n) return false;
    for (int i = 0; i < n; ++i) {
      if (dtypes[i] != in[i]) return false;
    }
    return true;
  }
};

constexpr int kResolvedCacheSize = 64;  // a power of two

// What a thread reuses from one kernel run to the next (core/per_thread.h): remembered
// resolutions, and the shape function's results (no allocation per op). A nested run (a kernel
// that runs ops) finds the results busy and uses its own.
struct ThreadScratch {
  ResolvedCall resolved[kResolvedCacheSize];
  InferenceOutputs shapes;
  bool shapes_busy = false;
};

ResolvedCall& resolved_slot(ThreadScratch& thread, const OpDef& op, const DType* dtypes, int n) {
  size_t h = reinterpret_cast<uintptr_t>(&op) >> 4;
  for (int i = 0; i < n; ++i) h = h * 31 + static_cast<size_t>(dtypes[i]);
  return thread.resolved[h & (kResolvedCacheSize - 1)];
}

// The shape function's results for one run: the thread's reused ones, or (nested) its own.
class ShapesFor {
 public:
  explicit ShapesFor(ThreadScratch& t) : scratch_(t.shapes_busy ? nullptr : &t) {
    if (scratch_) scratch_->shapes_busy = true;
  }
  ~ShapesFor() {
    if (scratch_) scratch_->shapes_busy = false;
  }
  ShapesFor(const ShapesFor&) = delete;
  ShapesFor& operator=(const ShapesFor&) = delete;
  InferenceOutputs* get() { return scratch_ ? &scratch_->shapes : &own_; }

 private:
  ThreadScratch* scratch_;
  InferenceOutputs own_;
};

// Runs the shape function (validation, output dtypes and shapes), then the kernel on the
// outputs `outputs_for(n)` gives for the n outputs inferred (null: not that many).
template <typename OutputsFor>
Status infer_and_run(const OpDef& op, KernelFn kernel, const Tensor* const* inputs, int num_inputs,
                     const AttrMap& attrs, const DType* type_attrs, const void* node, const void* prepared,
                     ThreadScratch& thread, OutputsFor&& outputs_for) {
  ShapesFor shapes_for(thread);
  InferenceOutputs* shapes = shapes_for.get();
  note_kernel_run();  // the runtime has started: thread counts are now fixed (as TF's context)
  InferenceContext ic(op, inputs, num_inputs, attrs, type_attrs, shapes);
  if (op.shape_fn) GRAPHFN_RETURN_IF_ERROR(op.shape_fn(ic));
  const int n = ic.num_outputs();
  Tensor* outputs = outputs_for(n);
  if (!outputs && n > 0) return errors::Internal(op.name, ": unexpected number of outputs ", n);
  KernelContext kc{op, inputs, num_inputs, attrs, type_attrs, ic.output_dtypes(), ic.output_shapes(),
                   outputs, n, node, prepared};
  try {
    return kernel(kc);
  } catch (const std::bad_alloc&) {
    return kernel_out_of_memory(ic.output_dtypes(), ic.output_shapes());
  }
}

}  // namespace

namespace {

// The eager run: `outputs` gets the op's outputs.
Status run_eager_kernel(const OpDef& op, KernelFn kernel, const Tensor* const* inputs, int num_inputs,
                        const AttrMap& attrs, const DType* type_attrs, ThreadScratch& thread,
                        std::vector<Tensor>* outputs) {
  return infer_and_run(op, kernel, inputs, num_inputs, attrs, type_attrs, nullptr, nullptr, thread, [&](int n) {
    if (n == 1 && outputs->empty()) {
      outputs->emplace_back();  // the usual single output: inline, where resize is a generic call
    } else {
      outputs->resize(n);
    }
    return outputs->data();
  });
}

}  // namespace

Status run_kernel(const OpDef& op, KernelFn kernel, const Tensor* const* inputs, int num_inputs,
                  const AttrMap& attrs, const DType* type_attrs, std::vector<Tensor>* outputs) {
  return run_eager_kernel(op, kernel, inputs, num_inputs, attrs, type_attrs, per_thread<ThreadScratch>(), outputs);
}

Status run_kernel(const OpDef& op, KernelFn kernel, const Tensor* const* inputs, int num_inputs,
                  const AttrMap& attrs, const DType* type_attrs, Tensor* outputs, int num_outputs, const void* node,
                  const void* prepared) {
  return infer_and_run(op, kernel, inputs, num_inputs, attrs, type_attrs, node, prepared,
                       per_thread<ThreadScratch>(), [&](int n) { return n == num_outputs ? outputs : nullptr; });
}

Status execute_eager(const OpDef& op, const Tensor* inputs, int num_inputs, const AttrMap& attrs,
                     std::vector<Tensor>* outputs) {
  constexpr int kInline = 16;
  const Tensor* inline_ptrs[kInline];
  std::vector<const Tensor*> many_ptrs;
  const Tensor** ptrs = inline_ptrs;
  if (num_inputs > kInline) {
    many_ptrs.resize(num_inputs);
    ptrs = many_ptrs.data();
  }
  for (int i = 0; i < num_inputs; ++i) ptrs[i] = &inputs[i];
  return execute_eager(op, ptrs, num_inputs, attrs, outputs);
}

namespace {

// Validation and resolution of a call, in TF's order: attr values are validated, then the kernel
// is looked up, then the inputs are checked against the kernel's signature (the kernel validates
// shapes later). Each step's error gets TF's " [Op:...]" suffix; the success path builds no
// Status copies (this is every eager op's path).
Status resolve_call(const OpDef& op, const DType* dtypes, int num_inputs, const AttrMap& attrs, DType* type_attrs,
                    KernelFn* kernel) {
  Status s = validate_op_call(op, dtypes, num_inputs, attrs);
  if (!s.ok()) return with_op_suffix(s, op);
  Status input_mismatch;
  s = resolve_type_attrs(op, dtypes, num_inputs, attrs, type_attrs, &input_mismatch);
  if (!s.ok()) return with_op_suffix(s, op);
  s = find_kernel(op, type_attrs, kernel);
  if (!s.ok()) return with_op_suffix(s, op);
  if (!input_mismatch.ok()) return with_op_suffix(input_mismatch, op);
  return Status::OK();
}

}  // namespace

Status execute_eager(const OpDef& op, const Tensor* const* inputs, int num_inputs, const AttrMap& attrs,
                     std::vector<Tensor>* outputs) {
  constexpr int kInline = 16;
  DType inline_dtypes[kInline];
  std::vector<DType> many_dtypes;
  DType* dtypes = inline_dtypes;
  if (num_inputs > kInline) {
    many_dtypes.resize(num_inputs);
    dtypes = many_dtypes.data();
  }
  for (int i = 0; i < num_inputs; ++i) dtypes[i] = inputs[i]->dtype();
  const size_t num_type_attrs = op.type_attr_names.size();
  ThreadScratch& thread = per_thread<ThreadScratch>();
  ResolvedCall* remembered = attrs.empty() && num_inputs <= ResolvedCall::kMaxInputs
                                 ? &resolved_slot(thread, op, dtypes, num_inputs)
                                 : nullptr;
  DType type_attrs[kMaxTypeAttrs];
  KernelFn kernel = nullptr;
  if (remembered && remembered->matches(op, dtypes, num_inputs)) {
    std::copy(remembered->type_attrs, remembered->type_attrs + num_type_attrs, type_attrs);
    kernel = remembered->kernel;
  } else {
    GRAPHFN_RETURN_IF_ERROR(resolve_call(op, dtypes, num_inputs, attrs, type_attrs, &kernel));
    if (remembered) {
      remembered->op = &op;
      remembered->num_inputs = num_inputs;
      std::copy(dtypes, dtypes + num_inputs, remembered->dtypes);
      std::copy(type_attrs, type_attrs + num_type_attrs, remembered->type_attrs);
      remembered->kernel = kernel;
    }
  }
  Status s = run_eager_kernel(op, kernel, inputs, num_inputs, attrs, type_attrs, thread, outputs);
  if (!s.ok()) return with_node_prefix(s, op, function_name(op, num_inputs, attrs));
  return s;
}

Status execute_eager(const std::string& op_name, const std::vector<Tensor>& inputs,
                     const AttrMap& attrs, std::vector<Tensor>* outputs) {
  const OpDef* op = OpRegistry::global().find(op_name);
  if (!op) return errors::NotFound("Op type not registered '", op_name, "'");
  return execute_eager(*op, inputs.data(), static_cast<int>(inputs.size()), attrs, outputs);
}

}  // namespace graphfn
