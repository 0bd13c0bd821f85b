// The complex-number ops: Complex (real, imag -> complex), Real, Imag, Angle, ComplexAbs
// (complex -> its real dtype) and Conj. Signatures and dtype lists are TF's.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status complex_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(shape_fns::broadcast_binary(c));
  c.output_dtypes()[0] = c.type_attr("Tout");
  return Status::OK();
}

Status to_real_shape(InferenceContext& c) {
  c.set_output(0, c.type_attr("Tout"), c.input_shape(0));
  return Status::OK();
}

}  // namespace

void register_complex_ops(OpRegistry& reg) {
  reg.op("Complex").input("real: T").input("imag: T").output("out: Tout")
      .attr("T: {float, double} = DT_FLOAT").attr("Tout: {complex64, complex128} = DT_COMPLEX64")
      .shape_fn(complex_shape, true);
  for (const char* name : {"Real", "Imag", "Angle"}) {
    reg.op(name).input("input: T").output("output: Tout")
        .attr("T: {complex64, complex128} = DT_COMPLEX64").attr("Tout: {float, double} = DT_FLOAT")
        .shape_fn(to_real_shape, true);
  }
  reg.op("ComplexAbs").input("x: T").output("y: Tout")
      .attr("T: {complex64, complex128} = DT_COMPLEX64").attr("Tout: {float, double} = DT_FLOAT")
      .shape_fn(to_real_shape, true);
  reg.op("Conj").input("input: T").output("output: T").attr("T: {complex64, complex128, variant} = DT_COMPLEX64")
      .shape_fn(shape_fns::unchanged, true);
}

}  // namespace graphfn
