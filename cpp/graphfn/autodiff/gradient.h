// Gradient functions and the builder they are written against. One GradFn per differentiable op
// (declared next to the op, autodiff/*_grad.cc) builds the op's backward computation from other ops
// through a GradBuilder, so the same definition serves:
//   - the eager tape (autodiff/tape.h): EagerGradBuilder runs each op at once;
//   - symbolic differentiation of graphs (functions, cond, while_loop): GraphGradBuilder
//     (autodiff/graph_grad_builder.h) appends nodes to an ir::Graph.
// A GradValue is an eager tensor or a graph endpoint; the builder knows which.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/status.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/graph.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {

// A value in a gradient computation: an eager tensor, a graph endpoint, or null ("no gradient").
struct GradValue {
  Tensor tensor;        // eager
  Endpoint endpoint{};  // graph: node -1 = not a graph value
  GradValue() = default;
  GradValue(Tensor t) : tensor(std::move(t)) {}  // NOLINT: implicit, eager values are tensors
  explicit GradValue(Endpoint e) : endpoint(e) {}
  bool is_null() const { return !tensor.valid() && endpoint.node < 0; }
  explicit operator bool() const { return !is_null(); }
};

// What a gradient function sees of the forward op. Inputs and outputs are flattened (a list input
// contributes one entry per tensor); output_grads has one entry per output, null when no gradient
// reaches it (gradient functions treat a null as zeros, or return nulls when all are null).
struct GradInputs {
  const OpDef* op = nullptr;
  const AttrMap* attrs = nullptr;  // the attrs given to the op (defaults not filled in)
  std::vector<GradValue> inputs;
  std::vector<GradValue> outputs;
  std::vector<GradValue> output_grads;
  // The forward node, when differentiating a graph (GraphGradBuilder): control-flow gradients
  // rewrite it to output the intermediates their gradient reads. -1 on a tape.
  int node = -1;
  // What a tape recorded with the op (a function call's compiled gradient), else null.
  const void* context = nullptr;

  // Attr values, falling back to the OpDef's default.
  bool attr_bool(const std::string& name) const;
  int64_t attr_int(const std::string& name) const;
  DType attr_type(const std::string& name) const;
  std::vector<int64_t> attr_ints(const std::string& name) const;
};

class GradBuilder {
 public:
  virtual ~GradBuilder() = default;

  // Runs or adds one op. The first failure is kept in status() and later calls return nulls, so
  // gradient functions chain calls and return b.status() at the end.
  GradValue op(const std::string& op_name, std::initializer_list<GradValue> inputs, AttrMap attrs = {});
  std::vector<GradValue> op_n(const std::string& op_name, const std::vector<GradValue>& inputs, AttrMap attrs = {});

  // A constant; a scalar of `dt` holding `value`; an int32 vector.
  virtual GradValue constant(const Tensor& value) = 0;
  GradValue scalar(DType dt, double value);
  GradValue int_vector(const std::vector<int64_t>& values);

  virtual DType dtype(const GradValue& v) const = 0;
  // The static shape: always full in eager mode, possibly partial in a graph.
  virtual Shape static_shape(const GradValue& v) const = 0;
  // The value when known now (eager tensors, graph constants), else null.
  virtual const Tensor* constant_value(const GradValue& v) const = 0;
  // The shape as an int32 tensor (a constant when the static shape is full).
  GradValue shape_of(const GradValue& v);

  // Common building blocks.
  GradValue zeros_like(const GradValue& v);
  GradValue ones_like(const GradValue& v);
  // Sums `grad` (the gradient of a broadcast result) down to the shape of `like`, as the gradient
  // of an input that was broadcast: BroadcastGradientArgs + Sum + Reshape (skipped when the static
  // shapes already match).
  GradValue reduce_to_shape_of(const GradValue& grad, const GradValue& like);
  // Sum of values (AddV2 for two, AddN for more; nulls skipped); null if all are null.
  GradValue add_n(const std::vector<GradValue>& values);

  Status status() const { return status_; }
  void set_error(const Status& s) {
    if (status_.ok()) status_ = s;
  }

 protected:
  // Runs/adds `op` on non-null inputs; fills one value per output.
  virtual Status run(const OpDef& op, const std::vector<GradValue>& inputs, const AttrMap& attrs,
                     std::vector<GradValue>* outputs) = 0;

 private:
  Status status_;
};

// A scalar tensor of `dt` holding `value` (converted as static_cast would).
Tensor scalar_tensor(DType dt, double value);

// TF's gradient override: a node or tape entry whose attrs name `_gradient_op_type` (what
// tf.custom_gradient sets) takes the gradient the host registered under that name instead of its
// op's. The Python bindings install the handler (it calls the Python gradient function, given as
// `in.context` on a tape, looked up by name in a graph); without one such nodes have no gradient.
using GradientOverride = Status (*)(const std::string& name, GradBuilder& b, const GradInputs& in,
                                    std::vector<GradValue>* input_grads);
void set_gradient_override(GradientOverride handler);
// What a tape records for a custom gradient: an op with no gradient function of its own.
const OpDef& custom_gradient_op();

// Calls the op's gradient function (or the override). Errors: LookupError-style NotFound when
// the op has none.
Status call_gradient(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* input_grads);

// TF's trainable dtypes: a tape records an op only when a watched input has one.
bool is_trainable_dtype(DType dt);

}  // namespace graphfn
