// Gradients of the convolution and pooling ops (ops/nn_conv_ops.cc, ops/nn_pool_ops.cc), as TF
// defines them: each backprop op takes the forward op's attrs.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::out;
using grad::x;
using Grads = std::vector<GradValue>;

// Conv2D -> (Conv2DBackpropInput, Conv2DBackpropFilter); likewise Conv3D and depthwise.
template <const char* kInputGrad, const char* kFilterGrad>
Status conv_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const AttrMap& attrs = *in.attrs;
  (*g)[0] = b.op(kInputGrad, {b.shape_of(in.inputs[0]), in.inputs[1], dy(in)}, attrs);
  (*g)[1] = b.op(kFilterGrad, {in.inputs[0], b.shape_of(in.inputs[1]), dy(in)}, attrs);
  return b.status();
}

constexpr char kConv2DInput[] = "Conv2DBackpropInput";
constexpr char kConv2DFilter[] = "Conv2DBackpropFilter";
constexpr char kConv3DInput[] = "Conv3DBackpropInputV2";
constexpr char kConv3DFilter[] = "Conv3DBackpropFilterV2";
constexpr char kDepthwiseInput[] = "DepthwiseConv2dNativeBackpropInput";
constexpr char kDepthwiseFilter[] = "DepthwiseConv2dNativeBackpropFilter";

// Conv2DBackpropInput(sizes, filter, dy) is linear in filter and dy (conv2d_transpose).
Status conv2d_backprop_input_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const AttrMap& attrs = *in.attrs;
  (*g)[1] = b.op("Conv2DBackpropFilter", {dy(in), b.shape_of(in.inputs[1]), in.inputs[2]}, attrs);
  (*g)[2] = b.op("Conv2D", {dy(in), in.inputs[1]}, attrs);
  return b.status();
}

// Conv2DBackpropFilter(x, sizes, dy) is linear in x and dy.
Status conv2d_backprop_filter_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const AttrMap& attrs = *in.attrs;
  (*g)[0] = b.op("Conv2DBackpropInput", {b.shape_of(in.inputs[0]), dy(in), in.inputs[2]}, attrs);
  (*g)[2] = b.op("Conv2D", {in.inputs[0], dy(in)}, attrs);
  return b.status();
}

// `attrs` without "Tshape": Conv3DBackpropInputV2 types its sizes input with it, but the ops
// its gradient builds (Conv3DBackpropFilterV2, Conv3D) have no such attr.
AttrMap without_tshape(const AttrMap& attrs) {
  AttrMap kept;
  for (const auto& [name, value] : attrs.items()) {
    if (name != "Tshape") kept.set(name, value);
  }
  return kept;
}

// The other backprop ops are linear in their two tensor inputs too: (sizes, filter, dy) for
// the input backprops, (input, sizes, dy) for the filter backprops.
template <const char* kForward, const char* kFilterGrad>
Status backprop_input_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const AttrMap attrs = without_tshape(*in.attrs);
  (*g)[1] = b.op(kFilterGrad, {dy(in), b.shape_of(in.inputs[1]), in.inputs[2]}, attrs);
  (*g)[2] = b.op(kForward, {dy(in), in.inputs[1]}, attrs);
  return b.status();
}

template <const char* kForward, const char* kInputGrad>
Status backprop_filter_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const AttrMap& attrs = *in.attrs;
  (*g)[0] = b.op(kInputGrad, {b.shape_of(in.inputs[0]), dy(in), in.inputs[2]}, attrs);
  (*g)[2] = b.op(kForward, {in.inputs[0], dy(in)}, attrs);
  return b.status();
}
constexpr char kConv3D[] = "Conv3D";
constexpr char kDepthwise[] = "DepthwiseConv2dNative";

// MaxPool -> MaxPoolGrad(x, y, dy); MaxPool3D -> MaxPool3DGrad.
template <const char* kGrad>
Status max_pool_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op(kGrad, {x(in), out(in), dy(in)}, *in.attrs);
  return b.status();
}
constexpr char kMaxPoolGrad[] = "MaxPoolGrad";
constexpr char kMaxPool3DGrad[] = "MaxPool3DGrad";

// MaxPoolGrad is linear in its gradient input: MaxPoolGradGrad picks it at each window's
// maximum. The pooled values themselves get zeros (TF's definition).
Status max_pool_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  AttrMap attrs;  // MaxPoolGradGrad has no explicit_paddings
  for (const char* name : {"ksize", "strides", "padding", "data_format"}) {
    if (const AttrValue* v = in.attrs->find(name)) attrs.set(name, *v);
  }
  (*g)[0] = b.zeros_like(in.inputs[0]);
  (*g)[1] = b.zeros_like(in.inputs[1]);
  (*g)[2] = b.op("MaxPoolGradGrad", {in.inputs[0], in.inputs[1], dy(in)}, attrs);
  return b.status();
}

// MaxPoolGradGrad is linear in its gradient input: MaxPoolGrad scatters it back.
Status max_pool_grad_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.zeros_like(in.inputs[0]);
  (*g)[1] = b.zeros_like(in.inputs[1]);
  (*g)[2] = b.op("MaxPoolGrad", {in.inputs[0], in.inputs[1], dy(in)}, *in.attrs);
  return b.status();
}

// TF differentiates MaxPool3DGrad with MaxPool3DGradGrad, which graphfn does not have yet.
Status max_pool3d_grad_grad(GradBuilder&, const GradInputs&, Grads*) {
  return errors::Unimplemented("graphfn has no MaxPool3DGradGrad yet: second derivatives of max_pool3d are not "
                               "supported");
}

// AvgPool -> AvgPoolGrad(shape(x), dy); AvgPool3D -> AvgPool3DGrad.
template <const char* kGrad>
Status avg_pool_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op(kGrad, {b.shape_of(x(in)), dy(in)}, *in.attrs);
  return b.status();
}
constexpr char kAvgPoolGrad[] = "AvgPoolGrad";
constexpr char kAvgPool3DGrad[] = "AvgPool3DGrad";

// AvgPoolGrad is linear in its gradient input, whose gradient is the forward pooling.
template <const char* kForward>
Status avg_pool_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[1] = b.op(kForward, {dy(in)}, *in.attrs);
  return b.status();
}
constexpr char kAvgPool[] = "AvgPool";
constexpr char kAvgPool3D[] = "AvgPool3D";

}  // namespace

void register_nn_conv_gradients(OpRegistry& reg) {
  reg.set_gradient("Conv2D", conv_grad<kConv2DInput, kConv2DFilter>);
  reg.set_gradient("Conv3D", conv_grad<kConv3DInput, kConv3DFilter>);
  reg.set_gradient("DepthwiseConv2dNative", conv_grad<kDepthwiseInput, kDepthwiseFilter>);
  reg.set_gradient("Conv2DBackpropInput", conv2d_backprop_input_grad);
  reg.set_gradient("Conv2DBackpropFilter", conv2d_backprop_filter_grad);
  reg.set_gradient("MaxPool", max_pool_grad<kMaxPoolGrad>);
  reg.set_gradient("MaxPool3D", max_pool_grad<kMaxPool3DGrad>);
  reg.set_gradient("MaxPoolGrad", max_pool_grad_grad);
  reg.set_gradient("AvgPool", avg_pool_grad<kAvgPoolGrad>);
  reg.set_gradient("AvgPool3D", avg_pool_grad<kAvgPool3DGrad>);
  reg.set_gradient("AvgPoolGrad", avg_pool_grad_grad<kAvgPool>);
  reg.set_gradient("AvgPool3DGrad", avg_pool_grad_grad<kAvgPool3D>);
  reg.set_gradient("MaxPoolGradGrad", max_pool_grad_grad_grad);
  reg.set_gradient("MaxPool3DGrad", max_pool3d_grad_grad);
  reg.set_gradient("Conv3DBackpropInputV2", backprop_input_grad<kConv3D, kConv3DFilter>);
  reg.set_gradient("Conv3DBackpropFilterV2", backprop_filter_grad<kConv3D, kConv3DInput>);
  reg.set_gradient("DepthwiseConv2dNativeBackpropInput", backprop_input_grad<kDepthwise, kDepthwiseFilter>);
  reg.set_gradient("DepthwiseConv2dNativeBackpropFilter", backprop_filter_grad<kDepthwise, kDepthwiseInput>);
}

}  // namespace graphfn
