// Array ops: constants, identity, and ops that move or reshape elements without arithmetic.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status const_shape(InferenceContext& c) {
  const Tensor* value = c.attrs().get_tensor("value");
  if (!value) return errors::InvalidArgument("Const needs a 'value' attr");
  c.set_output(0, value->dtype(), value->shape());
  return Status::OK();
}

}  // namespace

void register_array_ops(OpRegistry& reg) {
  reg.op("Const").output("output: dtype").attr("value: tensor").attr("dtype: type").shape_fn(const_shape);
  reg.op("Identity").input("input: T").output("output: T").attr("T: type").shape_fn(shape_fns::unchanged);
}

}  // namespace graphfn
