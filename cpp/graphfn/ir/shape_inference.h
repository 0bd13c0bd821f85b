// InferenceContext: what an op's shape function sees (input dtypes, shapes, constant values
// when known, attrs) and what it produces (output dtypes and shapes). The same shape function
// validates eager calls (everything known) and graph building (dims may be unknown).
#pragma once
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {

// Where a shape function writes its results; owned by the caller so eager dispatch can reuse one.
struct InferenceOutputs {
  std::vector<DType> dtypes;
  std::vector<Shape> shapes;
};

// What graph building knows about an input: its dtype, its (possibly partial) shape, and its
// value when the input is a constant.
struct InputInfo {
  DType dtype = DType::kInvalid;
  const Shape* shape = nullptr;
  const Tensor* value = nullptr;
  const Shape* handle_shape = nullptr;  // resource inputs: the shape of the variable behind them
  const Shape* shape_value = nullptr;   // shape inputs without a constant value: what they will hold
};

class InferenceContext {
 public:
  // Eager: inputs are concrete tensors. `outputs` is cleared first.
  InferenceContext(const OpDef& op, const Tensor* const* inputs, int num_inputs, const AttrMap& attrs,
                   const DType* type_attrs, InferenceOutputs* outputs)
      : op_(op), tensors_(inputs), num_inputs_(num_inputs), attrs_(attrs), type_attrs_(type_attrs),
        output_dtypes_(outputs->dtypes), output_shapes_(outputs->shapes) {
    output_dtypes_.clear();
    output_shapes_.clear();
  }
  // Graph building: shapes may be partial and values unknown (null).
  InferenceContext(const OpDef& op, const InputInfo* inputs, int num_inputs, const AttrMap& attrs,
                   const DType* type_attrs, InferenceOutputs* outputs)
      : op_(op), tensors_(nullptr), infos_(inputs), num_inputs_(num_inputs), attrs_(attrs),
        type_attrs_(type_attrs), output_dtypes_(outputs->dtypes), output_shapes_(outputs->shapes) {
    output_dtypes_.clear();
    output_shapes_.clear();
  }

  const OpDef& op() const { return op_; }
  const AttrMap& attrs() const { return attrs_; }
  int num_inputs() const { return num_inputs_; }
  DType input_dtype(int i) const { return tensors_ ? tensors_[i]->dtype() : infos_[i].dtype; }
  const Shape& input_shape(int i) const { return tensors_ ? tensors_[i]->shape() : *infos_[i].shape; }
  // The input's value when known (always in eager mode; for constants while tracing), else null.
  // Shape functions must handle null by producing unknown dimensions.
  const Tensor* input_value(int i) const {
    if (tensors_) return tensors_[i];
    note_read(i);
    return infos_[i].value;
  }
  bool is_eager() const { return tensors_ != nullptr; }
  // For a shape input (OpDef::shape_inputs) whose value is unknown while tracing, the partial
  // shape it will hold, when the ops that built it tell; else null.
  const Shape* input_shape_value(int i) const {
    if (tensors_) return nullptr;
    note_read(i);
    return infos_[i].shape_value;
  }
  // While tracing: whether the shape function asked for input i's value (TF names those inputs
  // in its error messages).
  bool value_was_read(int i) const { return i < 64 && (values_read_ >> i & 1); }
  // For a resource input fed by a placeholder, the shape of the variable it will hold (TF's
  // handle data), when known.
  const Shape* input_handle_shape(int i) const { return tensors_ ? nullptr : infos_[i].handle_shape; }
  // A resolved type attr ("T", "DstT", ...).
  DType type_attr(const std::string& name) const;

  void set_output(int i, DType dt, Shape shape);
  int num_outputs() const { return static_cast<int>(output_dtypes_.size()); }
  DType output_dtype(int i) const { return output_dtypes_[i]; }
  const Shape& output_shape(int i) const { return output_shapes_[i]; }
  std::vector<Shape>& output_shapes() { return output_shapes_; }
  std::vector<DType>& output_dtypes() { return output_dtypes_; }

 private:
  void note_read(int i) const {
    if (i < 64) values_read_ |= uint64_t{1} << i;
  }

  mutable uint64_t values_read_ = 0;
  const OpDef& op_;
  const Tensor* const* tensors_;
  const InputInfo* infos_ = nullptr;
  int num_inputs_;
  const AttrMap& attrs_;
  const DType* type_attrs_;
  std::vector<DType>& output_dtypes_;
  std::vector<Shape>& output_shapes_;
};

// Reads a constant integer tensor (a shape, axes, ...) as int64 values.
Status tensor_to_int64s(const Tensor& t, std::vector<int64_t>* out);

}  // namespace graphfn
