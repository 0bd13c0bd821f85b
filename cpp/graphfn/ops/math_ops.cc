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
  // The type lists are TF's, in TF's order (they show in error messages); dtypes graphfn has no
  // tensors for are listed but never reached.
  struct Binary { const char* name; const char* types; bool commutative; bool aggregate = false; };
  const Binary arithmetic[] = {
      {"AddV2", "T: {bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16, int32, int64, "
                "complex64, complex128}", true, true},
      // `+` on strings: TF's AddV2 has no string kernel, so string concatenation is the older Add.
      {"Add", "T: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, complex128, string}",
       false},
      {"Sub", "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64, complex64, complex128, "
              "uint32, uint64}", false},
      {"Mul", "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, int64, "
              "complex64, complex128}", true},
      {"RealDiv", "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, int64, "
                  "complex64, complex128}", false},
      {"FloorDiv", "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, int64, "
                   "complex64, complex128}", false},
      {"FloorMod", "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half, float, double}",
       false},
      {"Pow", "T: {bfloat16, float, half, double, int8, int16, int32, int64, complex64, complex128}", false},
      {"Maximum", "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64}", false},
      {"Minimum", "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64}", false},
      {"BitwiseAnd", "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}", true},
      {"BitwiseOr", "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}", true},
      {"BitwiseXor", "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}", true},
  };
  for (const Binary& b : arithmetic) {
    auto op = reg.op(b.name).input("x: T").input("y: T").output("z: T").attr(b.types).shape_fn(
        shape_fns::broadcast_binary, true);
    if (b.commutative) op.commutative();
    if (b.aggregate) op.aggregate();
  }

  const Binary comparisons[] = {
      {"Less", "T: {realnumbertype}", false},     {"LessEqual", "T: {realnumbertype}", false},
      {"Greater", "T: {realnumbertype}", false},  {"GreaterEqual", "T: {realnumbertype}", false},
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
  // Unary math ops with a T attr are one line each in ops/math_cwise.def.
}

}  // namespace graphfn
