// What tf.config and tf.device need to see of eager execution, at the cost of one relaxed load
// per eager op when nothing needs it.
//
// tf.config's device settings may change only until the runtime is initialized, which TF does on
// the first eager op or tensor; the first one takes the slow path and marks that. Afterwards the
// slow path is taken only while Python has set a hook: a device scope other than the CPU is open,
// or tf.debugging.set_log_device_placement(True). The hook sees the op's type name before it
// runs (it may raise TF's placement error or print the placement line) and, when it asks, the
// op's outputs (to name the logical device they are on).
#pragma once
#include <atomic>
#include <string>

#include <pybind11/pybind11.h>

namespace graphfn {
namespace py = pybind11;

namespace device_hook_detail {
extern std::atomic<bool> pending;
}  // namespace device_hook_detail

inline bool device_hook_pending() { return device_hook_detail::pending.load(std::memory_order_relaxed); }

// The slow path, before the op runs. True: call run_device_hook_outputs with its results.
// Throws py::error_already_set when the hook raises.
bool run_device_hook(const char* op_type);
void run_device_hook_outputs(const char* op_type, py::handle outputs);
// For an op TF runs on the way (a Python input becomes a tensor by _EagerConst): the hook may log
// it; placement errors are the consuming op's.
void run_device_hook_log_only(const char* op_type);

void bind_device_hook(py::module_& m);

}  // namespace graphfn
