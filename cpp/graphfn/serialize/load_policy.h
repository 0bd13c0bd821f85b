// What a graph loaded from a file may do beyond computing on its inputs and its own variables
// (docs/saving.md, "What a loaded model can do"). graphfn registers no op that reads or writes
// files or runs a program. PrintV2 appends to a file when its output_stream is "file://<path>":
// a loaded graph holding such a print is refused unless the loader allows it, so a model from
// elsewhere cannot write to any path the process can write to. EagerPyFunc / PyFunc call back
// into Python (tf.py_function): a loaded graph holding one is always refused. tests/cpp/serialize/test_load_policy.cc keeps the list of stateful ops reviewed.
#pragma once
#include "graphfn/ir/graph.h"

namespace graphfn {

struct LoadOptions {
  // Let PrintV2 nodes with output_stream "file://..." append to their files
  // (Python: graphfn.saved_model.LoadOptions(allow_file_output=True); graphfn-run:
  // --allow_file_output).
  bool allow_file_output = false;
};

// OK, or PermissionDenied naming the first node (and the functions around it) that would touch
// a file (and the option that allows it) or call Python.
Status check_load_policy(const Graph& graph, const LoadOptions& options);

}  // namespace graphfn
