// OpDef: everything known about an op without running it: its inputs, outputs, attrs, flags,
// shape/dtype inference and, filled in separately by kernels/, one kernel per dtype.
// Ops are declared once, in cpp/graphfn/ops/*.cc, with OpDefBuilder (see op_registry.h).
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/dtype.h"
#include "graphfn/core/shape.h"
#include "graphfn/core/status.h"

namespace graphfn {

struct KernelContext;
class InferenceContext;
struct OpDef;
class GradBuilder;
struct GradInputs;
struct GradValue;

using ShapeFn = Status (*)(InferenceContext&);
using KernelFn = Status (*)(KernelContext&);
// Reads the attrs a kernel needs into its own struct, once per plan step instead of per run
// (KernelContext::prepared; kernels/kernel_context.h has prepare_attrs and prepared_attrs).
using AttrPrepareFn = std::shared_ptr<const void> (*)(const AttrMap&);
// The gradient of an op (autodiff/gradient.h): fills one gradient per (flattened) input, a null
// GradValue where there is none. Written against GradBuilder, so one definition serves the eager
// tape and symbolic differentiation of graphs.
using GradFn = Status (*)(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* input_grads);

// One input or output: "x: T" (dtype from type attr T), "condition: bool" (fixed dtype) or
// "values: N * T" (a list of N tensors sharing T).
struct ArgDef {
  std::string name;
  std::string type_attr;
  DType fixed_type = DType::kInvalid;
  std::string number_attr;
  bool type_list = false;  // "inputs: T" with "T: list(type)": a list of tensors of any dtypes
  bool is_list() const { return !number_attr.empty() || type_list; }
};

// An attr: "T: type", "transpose_a: bool = false", "Tidx: {int32, int64} = DT_INT32", ...
struct AttrDef {
  std::string name;
  std::string kind;  // "type", "int", "float", "bool", "string", "shape", "list(int)", "tensor"
  bool has_default = false;
  AttrValue default_value;
  std::vector<DType> allowed;  // for "type" attrs; empty means any
  // TF's allowed list (DataType numbers, core/tf_types.h), as messages and OpDef summaries show
  // it: `allowed` plus the dtypes graphfn has no tensors for (half, complex64, ...).
  std::vector<int> tf_allowed;
  bool has_minimum = false;  // "N: int >= 2"
  int64_t minimum = 0;
};

struct OpDef {
  std::string name;
  std::vector<ArgDef> inputs;
  std::vector<ArgDef> outputs;
  std::vector<AttrDef> attrs;
  bool stateful = false;    // must run even when its outputs are unused; never folded or merged
  bool commutative = false;
  bool aggregate = false;  // TF's is_aggregate (AddN, AddV2): shows in the OpDef summary only
  // How the op uses its resource inputs: automatic control dependencies order reads after the
  // last write and writes after earlier reads and writes of the same resource.
  enum class ResourceAccess { kNone, kRead, kWrite } resource_access = ResourceAccess::kNone;
  // If/While: the node runs its subgraphs (func attrs) instead of a kernel; plans compile them.
  enum class ControlFlow { kNone, kIf, kCase, kWhile } control_flow = ControlFlow::kNone;
  ShapeFn shape_fn = nullptr;
  // While tracing, inputs may have partial shapes and unknown values. A shape function runs only
  // when the values it reads are constants (value_input_names; one that is also a shape input
  // of a function that handles partial shapes may be a partial shape instead) and, unless it
  // handles partial shapes, every input shape is fully known; otherwise outputs get unknown
  // shapes (the kernel still validates at run time).
  bool handles_partial_shapes = false;
  std::vector<std::string> value_input_names;
  // Inputs that are shape vectors: while tracing, a non-constant one gets the partial shape it
  // will hold when the ops that built it tell (ir/shape_value.h).
  std::vector<std::string> shape_input_names;
  // The type attr that selects the kernel ("T" unless set), and the kernels by dtype.
  std::string kernel_type_attr;
  std::array<KernelFn, kNumDTypes> kernels{};
  AttrPrepareFn prepare_attrs = nullptr;
  // The gradient function (autodiff/*_grad.cc), or null. `not_differentiable`: declared to have no
  // gradient (comparisons, Shape, ArgMax, ...): tapes do not record it, like TF's NotDifferentiable.
  GradFn grad_fn = nullptr;
  bool not_differentiable = false;

  // Index of a type attr among type_attr_names, or -1.
  int type_attr_index(const std::string& attr) const;
  std::vector<std::string> type_attr_names;  // filled by the builder: the "type" attrs in order
  const AttrDef* find_attr(const std::string& name) const;

  // Derived once all ops are registered (finalize()), so eager dispatch never compares strings.
  void finalize();
  int kernel_type_index = -1;                 // index into type_attr_names
  std::vector<int> input_type_index;          // per declared input: its type attr index, or -1
  std::vector<const AttrDef*> type_attr_defs; // per type attr
  std::vector<int> value_inputs;              // declared indices of value_input_names
  std::vector<int> shape_inputs;              // declared indices of shape_input_names
  int num_fixed_inputs = 0;                   // declared inputs that are not lists
  bool has_list_input = false;
};

}  // namespace graphfn
