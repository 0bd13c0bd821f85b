// The float16/bfloat16 kernels that widen to float, run the op's float32 kernel and round back
// (through_float.h).
#include <Eigen/Core>
#include <string>
#include <vector>

#include "graphfn/kernels/through_float.h"

namespace graphfn {
namespace {

template <typename T>
Tensor widened_to_float(const Tensor& in) {
  Tensor out(DType::kFloat32, in.shape());
  const T* src = in.data<T>();
  float* dst = out.data<float>();
  for (int64_t i = 0; i < in.num_elements(); ++i) dst[i] = static_cast<float>(src[i]);
  return out;
}

// Rounds to nearest even, or (round_down, for values in [0, 1)) to the largest T not above.
template <typename T>
Tensor narrowed_from_float(const Tensor& in, DType dt, bool round_down) {
  Tensor out(dt, in.shape());
  const float* src = in.data<float>();
  T* dst = out.data<T>();
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    T v = static_cast<T>(src[i]);
    if (round_down && static_cast<float>(v) > src[i] && src[i] >= 0) {
      v = Eigen::numext::bit_cast<T>(static_cast<uint16_t>(Eigen::numext::bit_cast<uint16_t>(v) - 1));
    }
    dst[i] = v;
  }
  return out;
}

Tensor float_copy_of(const Tensor& in) {
  return in.dtype() == DType::kHalf ? widened_to_float<Eigen::half>(in) : widened_to_float<Eigen::bfloat16>(in);
}

Tensor reduced_copy_of(const Tensor& in, DType dt, bool round_down) {
  return dt == DType::kHalf ? narrowed_from_float<Eigen::half>(in, dt, round_down)
                            : narrowed_from_float<Eigen::bfloat16>(in, dt, round_down);
}

}  // namespace

template <bool kRoundDown>
Status compute_through_float(KernelContext& c) {
  const DType reduced = c.type_attrs[c.op.kernel_type_index];
  const KernelFn float_kernel = c.op.kernels[static_cast<int>(DType::kFloat32)];
  if (!float_kernel) return errors::Internal(c.op.name, " has no float kernel to compute ", dtype_tf_string(reduced), " in");
  std::vector<Tensor> wide_inputs(c.num_inputs);
  std::vector<const Tensor*> inputs(c.inputs, c.inputs + c.num_inputs);
  for (int i = 0; i < c.num_inputs; ++i) {
    if (c.input(i).dtype() == reduced) {
      wide_inputs[i] = float_copy_of(c.input(i));
      inputs[i] = &wide_inputs[i];
    }
  }
  std::vector<DType> type_attrs(c.type_attrs, c.type_attrs + c.op.type_attr_names.size());
  for (DType& dt : type_attrs) dt = dt == reduced ? DType::kFloat32 : dt;
  std::vector<DType> output_dtypes = c.output_dtypes;
  for (DType& dt : output_dtypes) dt = dt == reduced ? DType::kFloat32 : dt;
  std::vector<Tensor> outputs(c.num_outputs);
  KernelContext fc{c.op, inputs.data(), c.num_inputs, c.attrs, type_attrs.data(), output_dtypes, c.output_shapes,
                   outputs.data(), c.num_outputs, c.node, c.prepared};
  GRAPHFN_RETURN_IF_ERROR(float_kernel(fc));
  for (int i = 0; i < c.num_outputs; ++i) {
    if (c.output_dtypes[i] == reduced) {
      c.set_output(i, reduced_copy_of(outputs[i], reduced, kRoundDown));
    } else {
      c.set_output(i, std::move(outputs[i]));
    }
  }
  return Status::OK();
}

template Status compute_through_float<false>(KernelContext& c);
template Status compute_through_float<true>(KernelContext& c);

void register_through_float(OpRegistry& reg, const char* op, bool round_down) {
  for (DType dt : {DType::kHalf, DType::kBFloat16}) {
    reg.set_kernel(op, dt, round_down ? &compute_through_float<true> : &compute_through_float<false>);
  }
}

}  // namespace graphfn
