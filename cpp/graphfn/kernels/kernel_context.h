// KernelContext: what a kernel sees. Inputs were validated by the op's shape function before the
// kernel runs, and the inferred output shapes are available, so kernels only compute.
#pragma once
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {

struct KernelContext {
  const OpDef& op;
  const Tensor* const* inputs;  // pointers, so the executor feeds its slots without copying
  int num_inputs;
  const AttrMap& attrs;
  const DType* type_attrs;                  // resolved type attrs, by OpDef::type_attr_names index
  const std::vector<DType>& output_dtypes;  // from the shape function
  const std::vector<Shape>& output_shapes;  // may hold unknown dims for data-dependent outputs
  // The outputs, num_outputs of them: a plan's output slots (so a kernel writes straight into
  // them, holding what the node produced last time) or the eager caller's vector.
  Tensor* outputs;
  int num_outputs;
  // The graph node being run (its plan step), or null when eager. Kernels with state keep it
  // per node in graphs, as TF's kernels do (two seeded random nodes each start their stream).
  const void* node = nullptr;
  // What the op's AttrPrepareFn made of the attrs when the plan was built (null when eager):
  // a kernel run per loop iteration then looks up no attr by name. See prepared_attrs().
  const void* prepared = nullptr;

  const Tensor& input(int i) const { return *inputs[i]; }
  DType type_attr(const std::string& name) const {
    const int i = op.type_attr_index(name);
    return i < 0 ? DType::kInvalid : type_attrs[i];
  }
  // Allocates output i with the inferred dtype and shape. The graph executor leaves the tensor
  // the node produced last time in the output slot: when nothing else refers to it and it has
  // the same dtype and shape, its buffer is reused (a loop's scalars cost no allocation).
  Tensor& allocate_output(int i) {
    Tensor& old = outputs[i];
    const auto& buffer = old.buffer();
    if (buffer && buffer.use_count() == 1 && buffer->recyclable() && old.dtype() == output_dtypes[i] &&
        old.shape() == output_shapes[i]) {
      return old;
    }
    return allocate_new_output(i);
  }
  // Allocates output i with a shape only known now (data-dependent ops).
  Status allocate_output(int i, const Shape& shape, Tensor** out) {
    Tensor t;
    GRAPHFN_RETURN_IF_ERROR(Tensor::make(output_dtypes[i], shape, &t));
    *out = &set_output(i, std::move(t));
    return Status::OK();
  }
  // allocate_output's slow path, out of line: the fast path inlines into every kernel.
  __attribute__((noinline)) Tensor& allocate_new_output(int i) {
    return set_output(i, Tensor(output_dtypes[i], output_shapes[i]));
  }
  Tensor& set_output(int i, Tensor t) {
    outputs[i] = std::move(t);
    outputs[i].clear_id();  // a forwarded input is still a new tensor (Tensor::id)
    return outputs[i];
  }
};

// An AttrPrepareFn from a reader of the kernel's attrs:
//   reg.set_attr_prepare("StringFormat", &prepare_attrs<FormatAttrs, &read_format_attrs>);
template <typename Attrs, Attrs (*Read)(const AttrMap&)>
std::shared_ptr<const void> prepare_attrs(const AttrMap& attrs) {
  return std::make_shared<const Attrs>(Read(attrs));
}

// The kernel's view of its attrs, prepared when the plan was built, or read now (eager):
//   FormatAttrs local;
//   const FormatAttrs& a = prepared_attrs(c, &read_format_attrs, &local);
template <typename Attrs>
const Attrs& prepared_attrs(const KernelContext& c, Attrs (*read)(const AttrMap&), Attrs* local) {
  if (c.prepared) return *static_cast<const Attrs*>(c.prepared);
  *local = read(c.attrs);
  return *local;
}

// Registers `Kernel<T>::compute` for every T in a TypeList:
//   register_kernels<AddKernel>(reg, "AddV2", NumericTypes{});
template <template <typename> class Kernel, typename... Ts>
void register_kernels(class OpRegistry& reg, const std::string& op, TypeList<Ts...>);

}  // namespace graphfn

#include "graphfn/ir/op_registry.h"

namespace graphfn {
template <template <typename> class Kernel, typename... Ts>
void register_kernels(OpRegistry& reg, const std::string& op, TypeList<Ts...>) {
  (reg.set_kernel(op, DTypeOf<Ts>::value, &Kernel<Ts>::compute), ...);
}
}  // namespace graphfn
