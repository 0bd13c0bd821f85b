// The host callback (core/host_callback.h) of the Python bindings: a running graph's
// EagerPyFunc / PyFunc node calls the Python function registered under its token, through
// graphfn.ops.script_ops._call_from_graph, with the GIL taken for the call.
#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/core/host_callback.h"

namespace graphfn {
namespace {

Status call_python(const std::string& token, HostCallbackKind kind, const std::vector<Tensor>& inputs,
                   const std::vector<DType>& output_dtypes, std::vector<Tensor>* outputs) {
  py::gil_scoped_acquire gil;
  try {
    py::list args;
    for (const Tensor& t : inputs) args.append(kind == HostCallbackKind::kArrays ? to_numpy(t) : py::cast(t));
    py::list dtypes;
    for (DType dt : output_dtypes) dtypes.append(static_cast<int>(dt));
    py::object dispatch = py::module_::import("graphfn.ops.script_ops").attr("_call_from_graph");
    // (0, [tensors]) or (error code, message): the dispatcher turns Python exceptions into TF's.
    py::tuple result = dispatch(token, args, dtypes, kind == HostCallbackKind::kArrays);
    const int code = result[0].cast<int>();
    if (code < 0 || code > static_cast<int>(Code::kUnauthenticated)) return Status(Code::kUnknown, py::str(result[1]).cast<std::string>());
    if (code != 0) return Status(static_cast<Code>(code), result[1].cast<std::string>());
    for (py::handle item : result[1]) {
      const Tensor* t = eager_tensor_ptr(item);
      if (!t) return errors::Internal("py_function '", token, "' result is not a tensor");
      outputs->push_back(*t);
    }
    return Status::OK();
  } catch (py::error_already_set& e) {
    return Status(Code::kUnknown, e.what());
  }
}

}  // namespace

void bind_script(py::module_& m) {
  set_host_callback(&call_python);
  // Off at interpreter exit (no Python left to call), and in tests of a runtime without Python.
  m.def("enable_host_callback", [](bool enabled) { set_host_callback(enabled ? &call_python : nullptr); });
}

}  // namespace graphfn
