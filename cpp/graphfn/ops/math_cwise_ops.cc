// Declares the element-wise math ops of ops/math_cwise.def: y = f(x) keeps x's shape,
// z = f(a, b) broadcasts.
#include <cstring>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status unary_to_bool_shape(InferenceContext& c) {
  c.set_output(0, DType::kBool, c.input_shape(0));
  return Status::OK();
}

}  // namespace

void register_math_cwise_ops(OpRegistry& reg) {
#define GRAPHFN_UNARY(NAME, TYPES, OUT, KTYPES, ARRAY, SCALAR, GRAD)                               \
  reg.op(#NAME).input("x: T").output("y: " #OUT).attr(TYPES).shape_fn(                             \
      std::strcmp(#OUT, "bool") == 0 ? unary_to_bool_shape : shape_fns::unchanged, true);
#define GRAPHFN_BINARY(NAME, A, B, TYPES, ORDER, KTYPES, SCALAR, CHECK, GRAD) \
  {                                                                                                 \
    auto op = reg.op(#NAME).input(#A ": T").input(#B ": T").output("z: T").attr(TYPES).shape_fn(    \
        shape_fns::broadcast_binary, true);                                                         \
    if (std::strcmp(#ORDER, "commutative") == 0) op.commutative();                                  \
  }
#include "graphfn/ops/math_cwise.def"
#undef GRAPHFN_UNARY
#undef GRAPHFN_BINARY
}

}  // namespace graphfn
