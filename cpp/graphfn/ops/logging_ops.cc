// Logging ops: StringFormat (tensors into a template), PrintV2 (a stateful print) and Assert.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

Status scalar_string(InferenceContext& c) {
  c.set_output(0, DType::kString, Shape());
  return Status::OK();
}

Status print_shape(InferenceContext& c) {
  if (c.input_shape(0).known_rank() && c.input_shape(0).rank() != 0) {
    return errors::InvalidArgument("input must be a scalar string tensor, got shape ", c.input_shape(0));
  }
  return Status::OK();
}

Status assert_shape(InferenceContext& c) {
  if (c.input_shape(0).known_rank() && c.input_shape(0).rank() != 0) {
    return errors::InvalidArgument("In[0] is not a scalar: ", c.input_shape(0));
  }
  return Status::OK();
}

}  // namespace

void register_logging_ops(OpRegistry& reg) {
  reg.op("Assert").input("condition: bool").input("data: T").attr("T: list(type) >= 1").attr("summarize: int = 3")
      .stateful().shape_fn(assert_shape, true);
  reg.op("StringFormat").input("inputs: T").output("output: string").attr("T: list(type)")
      .attr("template: string = %s").attr("placeholder: string = %s").attr("summarize: int = 3")
      .shape_fn(scalar_string, true);
  reg.op("PrintV2").input("input: string").attr("output_stream: string = stderr").attr("end: string = \n")
      .stateful().shape_fn(print_shape, true);
}

}  // namespace graphfn
