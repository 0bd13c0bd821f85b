// Element-wise math ops: arithmetic, comparisons, logic and unary functions.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {


Status cast_shape(InferenceContext& c) {
  c.set_output(0, c.type_attr("DstT"), c.input_shape(0));
  return Status::OK();
}

}  // namespace

void register_math_ops(OpRegistry& reg) {
  reg.op("Cast").input("x: SrcT").output("y: DstT").attr("SrcT: type").attr("DstT: type")
      .attr("Truncate: bool = false").shape_fn(cast_shape, true);

  // Arithmetic: z = f(x, y) with broadcasting; both inputs share T (no implicit promotion).
  struct Binary { const char* name; const char* types; bool commutative; };
  const Binary arithmetic[] = {
      {"AddV2", "T: {numbertype, string}", true},
      {"Sub", "T: {numbertype}", false},
      {"Mul", "T: {numbertype}", true},
      {"RealDiv", "T: {numbertype}", false},
      {"FloorDiv", "T: {numbertype}", false},
      {"FloorMod", "T: {numbertype}", false},
      {"Pow", "T: {float32, float64, int8, int16, int32, int64}", false},
      {"Maximum", "T: {numbertype}", true},
      {"Minimum", "T: {numbertype}", true},
  };
  for (const Binary& b : arithmetic) {
    auto op = reg.op(b.name).input("x: T").input("y: T").output("z: T").attr(b.types).shape_fn(
        shape_fns::broadcast_binary, true);
    if (b.commutative) op.commutative();
  }

  const Binary comparisons[] = {
      {"Less", "T: {numbertype}", false},         {"LessEqual", "T: {numbertype}", false},
      {"Greater", "T: {numbertype}", false},      {"GreaterEqual", "T: {numbertype}", false},
      {"Equal", "T: {alltypes}", true},           {"NotEqual", "T: {alltypes}", true},
  };
  for (const Binary& b : comparisons) {
    auto op = reg.op(b.name).input("x: T").input("y: T").output("z: bool").attr(b.types).shape_fn(
        shape_fns::broadcast_binary_to_bool, true);
    if (b.commutative) op.commutative();
  }
  reg.op("LogicalAnd").input("x: bool").input("y: bool").output("z: bool").commutative().shape_fn(
      shape_fns::broadcast_binary, true);
  reg.op("LogicalOr").input("x: bool").input("y: bool").output("z: bool").commutative().shape_fn(
      shape_fns::broadcast_binary, true);
  reg.op("LogicalNot").input("x: bool").output("y: bool").shape_fn(shape_fns::unchanged, true);

  // Unary: y = f(x), same dtype and shape.
  const std::pair<const char*, const char*> unary[] = {
      {"Neg", "T: {float32, float64, int8, int16, int32, int64}"},
      {"Abs", "T: {float32, float64, int8, int16, int32, int64}"},
      {"Sign", "T: {float32, float64, int8, int16, int32, int64}"},
      {"Square", "T: {numbertype}"},
      {"Sqrt", "T: {floattype}"},
      {"Exp", "T: {floattype}"},
      {"Log", "T: {floattype}"},
      {"Tanh", "T: {floattype}"},
      {"Sigmoid", "T: {floattype}"},
      {"Relu", "T: {numbertype}"},
  };
  for (const auto& [name, types] : unary) {
    reg.op(name).input("x: T").output("y: T").attr(types).shape_fn(shape_fns::unchanged, true);
  }
}

}  // namespace graphfn
