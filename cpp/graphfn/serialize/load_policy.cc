#include "graphfn/serialize/load_policy.h"

namespace graphfn {
namespace {

// The prefix PrintV2's kernel (kernels/logging_kernels.cc) takes as "append to this file".
constexpr std::string_view kFilePrefix = "file://";

bool calls_python(const std::string& op) { return op == "EagerPyFunc" || op == "PyFunc" || op == "PyFuncStateless"; }

Status check_node(const Node& node, const LoadOptions& options) {
  if (calls_python(node.op->name)) {
    // The token names a function in the registry of the process that traced it; in this process
    // it could name any other function, so a loaded graph never calls Python.
    const std::string* token = node.attrs.get_string("token");
    return Status(Code::kPermissionDenied,
                  "node '" + node.name + "' (" + node.op->name + ") calls the Python function '" +
                      (token ? *token : std::string()) +
                      "' of the process that saved the model (tf.py_function / tf.numpy_function); "
                      "a loaded model cannot call Python functions");
  }
  if (node.op->name == "ReadFile") {
    // A path chosen by the model's author could name any file the process can read.
    return Status(Code::kPermissionDenied, "node '" + node.name +
                                               "' (ReadFile) reads a file; a loaded model cannot read files "
                                               "(tf.io.read_file)");
  }
  if (node.op->name == "WriteFile" && !options.allow_file_output) {
    return Status(Code::kPermissionDenied,
                  "node '" + node.name +
                      "' (WriteFile) writes a file; a loaded model may write files only when loaded with "
                      "graphfn.saved_model.LoadOptions(allow_file_output=True) (graphfn-run: --allow_file_output)");
  }
  if (node.op->name != "PrintV2" || options.allow_file_output) return Status::OK();
  const std::string* stream = node.attrs.get_string("output_stream");
  if (!stream || std::string_view(*stream).substr(0, kFilePrefix.size()) != kFilePrefix) return Status::OK();
  return Status(Code::kPermissionDenied,
                "node '" + node.name + "' (PrintV2) writes to the file " + stream->substr(kFilePrefix.size()) +
                    " (output_stream='" + *stream +
                    "'); a loaded model may write files only when loaded with "
                    "graphfn.saved_model.LoadOptions(allow_file_output=True) (graphfn-run: --allow_file_output)");
}

}  // namespace

Status check_load_policy(const Graph& graph, const LoadOptions& options) {
  for (int i = 0; i < graph.num_nodes(); ++i) GRAPHFN_RETURN_IF_ERROR(check_node(graph.node(i), options));
  Status status;
  graph.for_each_subgraph([&](const Node& node, const FuncAttr& f) {
    if (status.ok()) {
      status = with_context(check_load_policy(*f.graph, options),
                            "function '" + f.name + "' of node '" + node.name + "'");
    }
  });
  return status;
}

}  // namespace graphfn
