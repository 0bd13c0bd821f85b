// EagerPyFunc / PyFunc / PyFuncStateless: hand the inputs to the host's callback
// (core/host_callback.h) and take its outputs, checked against Tout.
#include "graphfn/core/host_callback.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

template <HostCallbackKind kKind>
Status call_host(KernelContext& c) {
  const std::string* token = c.attrs.get_string("token");
  const std::vector<DType>* tout = c.attrs.get_type_list("Tout");
  if (!token || !tout) return errors::InvalidArgument("py_function node needs token and Tout attrs");
  const HostCallback callback = host_callback();
  if (!callback) {
    return errors::FailedPrecondition("The graph calls the Python function '", *token,
                                      "' (tf.py_function / tf.numpy_function), which only runs where Python "
                                      "defined it; this runtime has no Python");
  }
  std::vector<Tensor> inputs;
  inputs.reserve(c.num_inputs);
  for (int i = 0; i < c.num_inputs; ++i) inputs.push_back(c.input(i));
  std::vector<Tensor> outputs;
  GRAPHFN_RETURN_IF_ERROR(callback(*token, kKind, inputs, *tout, &outputs));
  if (outputs.size() != tout->size()) {
    return errors::Internal("py_function '", *token, "' gave ", outputs.size(), " results for ", tout->size(),
                            " outputs");
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].dtype() != (*tout)[i]) {
      return errors::InvalidArgument(i, "-th value returned by ", *token, " is ", dtype_tf_string(outputs[i].dtype()),
                                     ", but expects ", dtype_tf_string((*tout)[i]));
    }
    c.set_output(static_cast<int>(i), std::move(outputs[i]));
  }
  return Status::OK();
}

}  // namespace

void register_script_kernels(OpRegistry& reg) {
  reg.set_kernel("EagerPyFunc", DType::kInvalid, &call_host<HostCallbackKind::kTensors>);
  reg.set_kernel("PyFunc", DType::kInvalid, &call_host<HostCallbackKind::kArrays>);
  reg.set_kernel("PyFuncStateless", DType::kInvalid, &call_host<HostCallbackKind::kArrays>);
}

}  // namespace graphfn
