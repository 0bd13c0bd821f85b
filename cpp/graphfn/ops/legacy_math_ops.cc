// TF's older element-wise math ops that tf.raw_ops still offers: Div (x / y: truncating for
// integers, true division otherwise), Mod (C's fmod / %), Inv (1 / x, Reciprocal's old name)
// and Bucketize (the index of the bucket each value falls in, used by Keras' Discretization).
// Signatures and dtype lists are TF's.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status bucketize_shape(InferenceContext& c) {
  c.set_output(0, DType::kInt32, c.input_shape(0));
  return Status::OK();
}

}  // namespace

void register_legacy_math_ops(OpRegistry& reg) {
  reg.op("Div").input("x: T").input("y: T").output("z: T")
      .attr("T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, int64, "
            "complex64, complex128}")
      .shape_fn(shape_fns::broadcast_binary, true);
  // TF lists half twice.
  reg.op("Mod").input("x: T").input("y: T").output("z: T").attr("T: {int32, int64, half, half, bfloat16, float, double}")
      .shape_fn(shape_fns::broadcast_binary, true);
  reg.op("Inv").input("x: T").output("y: T")
      .attr("T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128}")
      .shape_fn(shape_fns::unchanged, true);
  // TF's `boundaries` is a list(float) attr; graphfn's attrs have no float lists, so it is held
  // as a tensor attr (a Python list converts to one) and read as floats by the kernel.
  reg.op("Bucketize").input("input: T").output("output: int32").attr("T: {int32, int64, float, double}")
      .attr("boundaries: tensor").shape_fn(bucketize_shape, true);
}

}  // namespace graphfn
