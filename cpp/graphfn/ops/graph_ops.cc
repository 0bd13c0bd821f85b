// Ops that only exist inside graphs: Placeholder (a function argument) and NoOp (does nothing;
// its control inputs make it a join point for tf.group and tf.control_dependencies).
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

Status placeholder_shape(InferenceContext& c) {
  const AttrValue* shape = c.attrs().find("shape");
  c.set_output(0, c.type_attr("dtype"),
               shape && std::holds_alternative<Shape>(*shape) ? std::get<Shape>(*shape) : Shape::unknown_rank());
  return Status::OK();
}

}  // namespace

void register_graph_ops(OpRegistry& reg) {
  reg.op("Placeholder").output("output: dtype").attr("dtype: type").attr("shape: shape = ?").shape_fn(placeholder_shape, true);
  reg.op("NoOp").shape_fn([](InferenceContext&) { return Status::OK(); }, true);
}

}  // namespace graphfn
