// Ops that call a host (Python) function while a graph runs: EagerPyFunc (tf.py_function: the
// function sees tensors), PyFunc and PyFuncStateless (tf.numpy_function: it sees NumPy arrays).
// `token` names the function in the host's registry; the outputs' shapes are unknown.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

Status script_shape(InferenceContext& c) {
  const std::vector<DType>* tout = c.attrs().get_type_list("Tout");
  if (!tout) return errors::InvalidArgument("py_function needs a Tout attr");
  for (size_t i = 0; i < tout->size(); ++i) c.set_output(static_cast<int>(i), (*tout)[i], Shape::unknown_rank());
  return Status::OK();
}

}  // namespace

void register_script_ops(OpRegistry& reg) {
  reg.op("EagerPyFunc").input("input: Tin").output("output: Tout").attr("token: string")
      .attr("is_async: bool = false").attr("Tin: list(type) >= 0").attr("Tout: list(type) >= 0")
      .stateful().shape_fn(script_shape, true);
  for (const char* name : {"PyFunc", "PyFuncStateless"}) {
    auto op = reg.op(name).input("input: Tin").output("output: Tout").attr("token: string")
                  .attr("Tin: list(type) >= 0").attr("Tout: list(type) >= 0").shape_fn(script_shape, true);
    if (std::string(name) == "PyFunc") op.stateful();
  }
}

}  // namespace graphfn
