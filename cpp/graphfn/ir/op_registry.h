// OpRegistry: name -> OpDef. Declaring an op (cpp/graphfn/ops/*.cc):
//
//   reg.op("AddV2")
//       .input("x: T").input("y: T").output("z: T")
//       .attr("T: {numbertype, string}")
//       .commutative()
//       .shape_fn(shape_fns::broadcast_binary);
//
// Kernels are attached by cpp/graphfn/kernels/*.cc with reg.set_kernel("AddV2", dtype, fn).
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "graphfn/ir/op_def.h"

namespace graphfn {

class OpDefBuilder {
 public:
  explicit OpDefBuilder(OpDef* def) : def_(def) {}
  OpDefBuilder& input(const std::string& spec);
  OpDefBuilder& output(const std::string& spec);
  OpDefBuilder& attr(const std::string& spec);
  OpDefBuilder& stateful() { def_->stateful = true; return *this; }
  OpDefBuilder& control_flow(OpDef::ControlFlow kind) { def_->control_flow = kind; return *this; }
  OpDefBuilder& commutative() { def_->commutative = true; return *this; }
  OpDefBuilder& aggregate() { def_->aggregate = true; return *this; }
  OpDefBuilder& reads_resource() { def_->resource_access = OpDef::ResourceAccess::kRead; return *this; }
  OpDefBuilder& writes_resource() { def_->resource_access = OpDef::ResourceAccess::kWrite; return *this; }
  // `handles_partial_shapes`: the function is correct for unknown dims and ranks (see OpDef).
  OpDefBuilder& shape_fn(ShapeFn fn, bool handles_partial_shapes = false) {
    def_->shape_fn = fn;
    def_->handles_partial_shapes = handles_partial_shapes;
    return *this;
  }
  // The shape function reads this input's value (an axis, a shape, ...).
  OpDefBuilder& needs_value(const std::string& input) { def_->value_input_names.push_back(input); return *this; }
  // This input is a shape vector (see OpDef::shape_input_names).
  OpDefBuilder& shape_input(const std::string& input) { def_->shape_input_names.push_back(input); return *this; }
  OpDefBuilder& kernel_type_attr(const std::string& attr) { def_->kernel_type_attr = attr; return *this; }

 private:
  OpDef* def_;
};

class OpRegistry {
 public:
  // The process-wide registry. ir knows no op: definitions, kernels and gradients live in the
  // layers above, and runtime/builtin_ops.h's install_builtin_ops() fills it, which every entry
  // point calls first (the Python module, SavedModel::load, the C++ tests). Throws
  // std::logic_error before that.
  static OpRegistry& global();
  // Fills the global registry with `populate`, then finalizes every op; once per process (later
  // calls return at once, after the first has finished). Thread-safe.
  static void install_global(void (*populate)(OpRegistry& reg));

  OpDefBuilder op(const std::string& name);
  const OpDef* find(const std::string& name) const;
  // Attaches a kernel; fails loudly (at registration time) for an unknown op.
  void set_kernel(const std::string& op, DType dt, KernelFn fn);
  // Lets plans prepare the op's attrs for its kernels once (OpDef::prepare_attrs).
  void set_attr_prepare(const std::string& op, AttrPrepareFn fn);
  // Attaches a gradient function, or declares the op not differentiable (autodiff/*_grad.cc).
  void set_gradient(const std::string& op, GradFn fn);
  void set_not_differentiable(const std::string& op);
  std::vector<std::string> op_names() const;

 private:
  std::unordered_map<std::string, std::unique_ptr<OpDef>> ops_;
};

}  // namespace graphfn
