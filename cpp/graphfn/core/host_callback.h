// A function the embedding host installs so that a running graph can call back into it: the
// Python bindings install one that runs the Python function of a tf.py_function /
// tf.numpy_function node. Graphs run without a host (graphfn-run) have none, and those nodes
// fail with the error host_callback_missing() describes.
#pragma once
#include <string>
#include <vector>

#include "graphfn/core/dtype.h"
#include "graphfn/core/status.h"
#include "graphfn/core/tensor.h"

namespace graphfn {

// How the callback sees its arguments: as tensors (EagerPyFunc) or as NumPy arrays (PyFunc).
enum class HostCallbackKind { kTensors, kArrays };

// Runs the host function registered under `token` on `inputs`; fills `outputs` with exactly
// `output_dtypes.size()` tensors of those dtypes, or returns the error the function raised.
using HostCallback = Status (*)(const std::string& token, HostCallbackKind kind, const std::vector<Tensor>& inputs,
                                const std::vector<DType>& output_dtypes, std::vector<Tensor>* outputs);

void set_host_callback(HostCallback callback);
HostCallback host_callback();  // null when no host installed one

}  // namespace graphfn
