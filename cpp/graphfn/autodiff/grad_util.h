// Helpers shared by the gradient functions in autodiff/*_grad.cc.
#pragma once
#include <vector>

#include "graphfn/autodiff/gradient.h"
#include "graphfn/ir/op_registry.h"

namespace graphfn {
namespace grad {

inline const GradValue& x(const GradInputs& in) { return in.inputs[0]; }
inline const GradValue& y(const GradInputs& in) { return in.inputs[1]; }
inline const GradValue& out(const GradInputs& in) { return in.outputs[0]; }
inline const GradValue& dy(const GradInputs& in) { return in.output_grads[0]; }
// TF's gradients of products conjugate the other factor when it is complex.
inline GradValue conj_if_complex(GradBuilder& b, const GradValue& v) {
  return is_complex(b.dtype(v)) ? b.op("Conj", {v}) : v;
}

inline AttrMap attrs(std::initializer_list<std::pair<const char*, AttrValue>> items) {
  AttrMap m;
  for (const auto& [name, value] : items) m.set(name, value);
  return m;
}

// Gradients gx, gy of a broadcasting binary op's result, reduced to each input's shape.
inline Status binary(GradBuilder& b, const GradInputs& in, const GradValue& gx, const GradValue& gy,
                     std::vector<GradValue>* grads) {
  (*grads)[0] = b.reduce_to_shape_of(gx, in.inputs[0]);
  (*grads)[1] = b.reduce_to_shape_of(gy, in.inputs[1]);
  return b.status();
}

// The input's gradient is the output's (Identity, ReadVariableOp).
inline Status pass_through(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* grads) {
  (*grads)[0] = dy(in);
  return b.status();
}

// The input's gradient is the output's, reshaped back (Reshape, ExpandDims, Squeeze).
inline Status reshape_back(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* grads) {
  (*grads)[0] = b.op("Reshape", {dy(in), b.shape_of(x(in))});
  return b.status();
}

// The value of a constant integer input (an axis, a permutation) when known now.
Status int_values(GradBuilder& b, const GradValue& v, const char* what, std::vector<int64_t>* out);

}  // namespace grad
}  // namespace graphfn
