// Element-wise raw ops of TF's math_ops that graphfn's own APIs do not need but tf.raw_ops
// offers: the fused gradient ops SigmoidGrad, TanhGrad, SqrtGrad, RsqrtGrad, ReciprocalGrad
// and InvGrad (z from the forward output y and its gradient dy), ApproximateEqual
// (|x - y| < tolerance), Xlog1py (x * log1p(y), 0 where x is 0) and NextAfter. Signatures and
// dtype lists are TF's.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status approximate_equal_shape(InferenceContext& c) {
  c.set_output(0, DType::kBool, c.input_shape(0));
  return Status::OK();
}

}  // namespace

void register_cwise_extra_ops(OpRegistry& reg) {
  for (const char* name : {"SigmoidGrad", "TanhGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad", "InvGrad"}) {
    reg.op(name).input("y: T").input("dy: T").output("z: T")
        .attr("T: {bfloat16, half, float, double, complex64, complex128}").shape_fn(shape_fns::unchanged, true);
  }
  reg.op("ApproximateEqual").input("x: T").input("y: T").output("z: bool")
      .attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, "
            "qint16, quint16, uint16, complex128, half, uint32, uint64}")
      .attr("tolerance: float = 1e-05").commutative().shape_fn(approximate_equal_shape, true);
  reg.op("Xlog1py").input("x: T").input("y: T").output("z: T")
      .attr("T: {half, bfloat16, float, double, complex64, complex128}").shape_fn(shape_fns::broadcast_binary, true);
  reg.op("NextAfter").input("x1: T").input("x2: T").output("output: T").attr("T: {double, float} = DT_FLOAT")
      .shape_fn(shape_fns::broadcast_binary, true);
}

}  // namespace graphfn
