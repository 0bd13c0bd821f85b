// Activation fusion (TF's "remapping" optimizer option): chains of memory-bound passes over a
// convolution's output become one kernel.
//  - Conv2D -> BiasAdd (or AddV2 of a [C] or [1, 1, 1, C] bias) [-> Relu], float NHWC, each
//    output used only by the next node: one GraphfnFusedConv2D, which adds the bias and applies
//    Relu to each block of outputs while it is in cache (kernels/nn_conv_epilogue.h). Two passes
//    over the activations fewer in the forward pass of a convnet.
//  - ReluGrad(MaxPoolGrad(x, y, g), x), the MaxPoolGrad used only there: MaxPoolGrad with
//    kMaxPoolGradReluAttr (kernels/activation_fusion_attrs.h), which multiplies by x > 0 as it
//    writes. One pass fewer in the backward pass.
// Both give the unfused ops' bits. The last node of a chain is rewritten in place (so uses and
// results that named it stay valid); the others become unused and Plan::build prunes them.
#pragma once
#include "graphfn/ir/graph.h"

namespace graphfn {

// Returns true if anything changed.
bool fuse_activations(Graph& graph);

}  // namespace graphfn
