// float16 and bfloat16 kernels of the convolutions, pooling ops, fused batch norm, LRN and
// L2Loss: each widens its float16/bfloat16 inputs to float, runs the op's float32 kernel
// (kernels/nn_conv.cc, nn_pool.cc, nn_batch_norm.cc, nn_bias_lrn.cc, nn_activations.cc) and
// rounds the outputs once (through_float.h). TF 2.21's CPU kernels compute Conv2D and the batch
// norms the same way, so those results carry TF's bits up to the float sum's order; its other
// convolutions and average pooling accumulate in the reduced type, which this rounds once
// (closer to the exact value, a few units in the last place from TF's). MaxPool only selects,
// so it is exact.
#include "graphfn/kernels/through_float.h"

namespace graphfn {
namespace {

// The ops whose TF CPU kernels take both float16 and bfloat16.
constexpr const char* kReducedPrecisionWindowOps[] = {
    "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter",
    "Conv3D", "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2",
    "DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter",
    "MaxPool", "MaxPoolGrad", "MaxPoolGradGrad", "AvgPool", "AvgPoolGrad",
    "L2Loss",
};

// TF registers its 3-D pooling kernels for bfloat16 only (float16 has none on CPU), and LRN's
// for float16 only.
constexpr const char* kBFloat16Only[] = {"MaxPool3D", "AvgPool3D", "AvgPool3DGrad"};
constexpr const char* kHalfOnly[] = {"LRN", "LRNGrad"};

// TF's error for a type-attr combination it has no CPU kernel for.
Status no_kernel_for(const KernelContext& c, const char* other_attr) {
  return errors::NotFound("Could not find device for node: {{node ", c.op.name, "}} = ", c.op.name,
                          "[T=", dtype_tf_enum(c.type_attr("T")), ", ", other_attr, "=",
                          dtype_tf_enum(c.type_attr(other_attr)), "]");
}

// FusedBatchNormV3/GradV3 on float16/bfloat16 x: TF's kernels take float scale, offset, mean and
// variance (U) only.
Status reduced_precision_batch_norm(KernelContext& c) {
  if (c.type_attr("U") != DType::kFloat32) return no_kernel_for(c, "U");
  return compute_through_float<false>(c);
}

// MaxPool3DGrad's kernels have orig_input/orig_output (TInput) of the gradient's type T.
Status reduced_precision_max_pool3d_grad(KernelContext& c) {
  if (c.type_attr("TInput") != c.type_attr("T")) return no_kernel_for(c, "TInput");
  return compute_through_float<false>(c);
}

}  // namespace

void register_nn_reduced_precision_window_kernels(OpRegistry& reg) {
  for (const char* op : kReducedPrecisionWindowOps) register_through_float(reg, op);
  for (const char* op : kBFloat16Only) reg.set_kernel(op, DType::kBFloat16, &compute_through_float<false>);
  reg.set_kernel("MaxPool3DGrad", DType::kBFloat16, &reduced_precision_max_pool3d_grad);
  for (const char* op : kHalfOnly) reg.set_kernel(op, DType::kHalf, &compute_through_float<false>);
  for (const char* op : {"FusedBatchNormV3", "FusedBatchNormGradV3"}) {
    for (DType dt : {DType::kHalf, DType::kBFloat16}) reg.set_kernel(op, dt, &reduced_precision_batch_norm);
  }
}

}  // namespace graphfn
