// Gradient of EagerPyFunc (tf.py_function): another EagerPyFunc node, token "<token>:gradient",
// taking the forward inputs and the outputs' gradients; the host answers it by differentiating
// the Python function (python/graphfn/ops/script_ops.py). PyFunc (tf.numpy_function) has none.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

Status eager_py_func_grad(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* g) {
  const std::string* token = in.attrs->get_string("token");
  if (!token) return errors::InvalidArgument("EagerPyFunc needs a token attr");
  std::vector<GradValue> args = in.inputs;
  std::vector<DType> arg_types;
  std::vector<DType> grad_types;
  for (const GradValue& x : in.inputs) {
    arg_types.push_back(b.dtype(x));
    grad_types.push_back(b.dtype(x));
  }
  bool any_gradient = false;
  for (size_t i = 0; i < in.outputs.size(); ++i) {
    const GradValue& dy = in.output_grads[i];
    any_gradient |= !dy.is_null();
    args.push_back(dy.is_null() ? b.zeros_like(in.outputs[i]) : dy);
    arg_types.push_back(b.dtype(in.outputs[i]));
  }
  if (!any_gradient || in.inputs.empty()) return Status::OK();
  AttrMap attrs;
  attrs.set("token", *token + ":gradient");
  attrs.set("Tin", arg_types);
  attrs.set("Tout", grad_types);
  std::vector<GradValue> grads = b.op_n("EagerPyFunc", args, std::move(attrs));
  GRAPHFN_RETURN_IF_ERROR(b.status());
  for (size_t i = 0; i < grads.size() && i < g->size(); ++i) {
    if (is_trainable_dtype(grad_types[i])) (*g)[i] = grads[i];
  }
  return Status::OK();
}

}  // namespace

void register_script_gradients(OpRegistry& reg) {
  reg.set_gradient("EagerPyFunc", eager_py_func_grad);
  for (const char* op : {"PyFunc", "PyFuncStateless"}) reg.set_not_differentiable(op);
}

}  // namespace graphfn
