// The attrs by which passes/activation_fusion.h tells kernels what they absorbed.
#pragma once

namespace graphfn {

// MaxPoolGrad with this attr true also computes the ReluGrad that followed it, whose features
// were the pooling's input: dx * (input > 0 ? 1 : 0), a product as TF's ReluGrad (a NaN gradient
// stays NaN where the input is not positive).
inline constexpr const char* kMaxPoolGradReluAttr = "_relu_grad";

}  // namespace graphfn
