// The sliding-window geometry shared by the convolution and pooling ops (ops/nn_conv_ops.cc,
// ops/nn_pool_ops.cc) and their kernels: TF's padding modes, output sizes and the checks of the
// strides/dilations/ksize/explicit_paddings attrs, with TF's CPU kernels' error texts.
// Layouts are channels-last (NHWC, NDHWC); 1 to 3 spatial dims.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/shape.h"
#include "graphfn/core/status.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {

enum class Padding { kSame, kValid, kExplicit };

// One window op's geometry. Spatial arrays hold `spatial` entries; unknown dims (graph
// building) are Shape::kUnknownDim and make the outputs that depend on them unknown.
struct WindowGeometry {
  int spatial = 2;
  int64_t batch = 0;
  int64_t in_depth = 0;   // input channels
  int64_t out_depth = 0;  // output channels
  std::array<int64_t, 3> in{}, window{}, stride{}, dilation{}, out{}, pad_before{}, pad_after{};
  Padding padding = Padding::kValid;
};

// Reads the `padding` attr; a value outside `allowed` ("SAME", "VALID", maybe "EXPLICIT") gets
// TF's attr-validation message.
Status read_padding(const OpDef& op, const AttrMap& attrs, bool explicit_allowed, Padding* out);

// Checks `data_format` against TF's allowed values for the op (`formats`, the first being the
// channels-last default) and reports whether it is channels-last.
Status read_data_format(const OpDef& op, const AttrMap& attrs, const std::vector<std::string>& formats,
                        bool* channels_last);

// A list(int) attr (else its default) as int64 values; values outside int32 get TF's "Attr
// strides has value ... out of range for an int32".
Status read_int32_list(const OpDef& op, const AttrMap& attrs, const char* name, std::vector<int64_t>* out);

// TF's explicit_paddings checks (CheckValidPadding) for a rank-`dims` op, and the spatial pads.
Status read_explicit_paddings(const AttrMap& attrs, Padding padding, int dims, WindowGeometry* g);

// TF's GetWindowedOutputSize: output size and padding of one spatial dim. `in` may be unknown.
Status windowed_output_size(int64_t in, int64_t window, int64_t dilation, int64_t stride, Padding padding,
                            int64_t explicit_before, int64_t explicit_after, int64_t* out, int64_t* before,
                            int64_t* after);

// The output dims of all spatial dims of `g` (in, window, dilation, stride, padding, explicit
// pads read), filling g->out, pad_before and pad_after.
Status windowed_output_sizes(WindowGeometry* g);

// The rank-(spatial + 2) channels-last shape [batch, out..., depth].
Shape window_output_shape(const WindowGeometry& g, int64_t depth);

// For kernels (the shape function has validated the call): the geometry of a convolution op
// (Conv2D, Conv3D, DepthwiseConv2dNative and their backprops) with these input and filter
// shapes (ops/nn_conv_ops.cc), and of a pooling op with this input shape (ops/nn_pool_ops.cc).
Status conv_kernel_geometry(const OpDef& op, const AttrMap& attrs, const Shape& input, const Shape& filter,
                            WindowGeometry* g);
Status pool_kernel_geometry(const OpDef& op, const AttrMap& attrs, const Shape& input, WindowGeometry* g);

}  // namespace graphfn
