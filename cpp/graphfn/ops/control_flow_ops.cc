// Functional control flow, as TF 2.x writes it: If / StatelessIf run one of two branch
// subgraphs, Case / StatelessCase one of N, While / StatelessWhile run a body subgraph while a cond subgraph says so. The
// branches and bodies are func attrs (FuncAttr); the plan compiles them into sub-plans
// (runtime/plan.cc). The stateful variants are picked when a subgraph holds a stateful op.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

// Outputs with the dtypes of `dtypes` and the shapes of the "output_shapes" attr (or `fallback`
// shapes, or unknown ones).
Status outputs_from_attrs(InferenceContext& c, const std::vector<DType>& dtypes, bool inputs_as_fallback,
                          int first_input) {
  const std::vector<Shape>* shapes = c.attrs().get_shape_list("output_shapes");
  const bool use_attr = shapes && shapes->size() == dtypes.size();
  for (size_t i = 0; i < dtypes.size(); ++i) {
    const int k = static_cast<int>(i);
    Shape shape = use_attr ? (*shapes)[i]
                  : inputs_as_fallback ? c.input_shape(first_input + k)
                                       : Shape::unknown_rank();
    c.set_output(k, dtypes[i], std::move(shape));
  }
  return Status::OK();
}

Status if_shape(InferenceContext& c) {
  const std::vector<DType>* tout = c.attrs().get_type_list("Tout");
  if (!tout) return errors::InvalidArgument("If needs a Tout attr");
  return outputs_from_attrs(c, *tout, false, 1);
}

Status while_shape(InferenceContext& c) {
  std::vector<DType> dtypes;
  for (int i = 0; i < c.num_inputs(); ++i) dtypes.push_back(c.input_dtype(i));
  return outputs_from_attrs(c, dtypes, true, 0);
}

}  // namespace

void register_control_flow_ops(OpRegistry& reg) {
  for (const char* name : {"If", "StatelessIf"}) {
    auto def = reg.op(name);
    def.input("cond: Tcond").input("input: Tin").output("output: Tout")
        .attr("Tcond: type").attr("Tin: list(type)").attr("Tout: list(type)")
        .attr("then_branch: func").attr("else_branch: func").attr("output_shapes: list(shape) = []")
        .control_flow(OpDef::ControlFlow::kIf).shape_fn(if_shape, true);
    if (std::string(name) == "If") def.stateful();
  }
  for (const char* name : {"Case", "StatelessCase"}) {
    auto def = reg.op(name);
    def.input("branch_index: int32").input("input: Tin").output("output: Tout")
        .attr("Tin: list(type)").attr("Tout: list(type)").attr("branches: list(func) >= 1")
        .attr("output_shapes: list(shape) = []")
        .control_flow(OpDef::ControlFlow::kCase).shape_fn(if_shape, true);
    if (std::string(name) == "Case") def.stateful();
  }
  for (const char* name : {"While", "StatelessWhile"}) {
    auto def = reg.op(name);
    def.input("input: T").output("output: T").attr("T: list(type)")
        .attr("cond: func").attr("body: func").attr("output_shapes: list(shape) = []")
        .attr("parallel_iterations: int = 10")
        .control_flow(OpDef::ControlFlow::kWhile).shape_fn(while_shape, true);
    if (std::string(name) == "While") def.stateful();
  }
}

}  // namespace graphfn
