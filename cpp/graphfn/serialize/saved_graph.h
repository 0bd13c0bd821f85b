// SavedGraph: what graphfn.saved_model.save writes and load reads (docs/saving.md): variables
// with their values, traced functions (graphs with their func-attr subgraphs), signatures, and
// the Python object tree. One file, "<export_dir>/saved_graph.gfn": a magic number, the format
// version, the body's size and CRC-32, then the body. Python and the C++ runner
// (runtime/saved_model.h, tools/graphfn_run.cc) share this reader and writer.
//
//   SavedGraph saved;
//   GRAPHFN_RETURN_IF_ERROR(read_saved_graph("/tmp/model", &saved));
//   const Graph& g = *saved.functions[saved.signatures[0].function].graph;
//
// Reading never trusts the file: every failure is a Status naming what is wrong (DataLoss for
// a damaged encoding, NotFound for an unregistered op, InvalidArgument for a graph that does
// not check, PermissionDenied for a graph that would write files the options do not allow),
// never a crash, a hang or an allocation larger than the file implies. The header is read and
// checked against the file's size before the body is read.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "graphfn/core/resource.h"
#include "graphfn/ir/graph.h"
#include "graphfn/serialize/load_policy.h"

namespace graphfn {

constexpr uint32_t kSavedGraphVersion = 1;
constexpr char kSavedGraphMagic[8] = {'\x89', 'G', 'F', 'N', '\r', '\n', '\x1a', '\n'};
constexpr const char* kSavedGraphFileName = "saved_graph.gfn";
constexpr size_t kSavedGraphHeaderBytes = 24;  // magic, version, body size, CRC-32

struct SavedGraph {
  struct Variable {
    std::string name;  // "dense/kernel:0"
    bool trainable = true;
    // Writing: the live variable (its current value is saved). Reading: a new variable
    // holding the saved value; functions' captured handles refer to it.
    std::shared_ptr<VariableResource> resource;
  };
  struct Function {
    std::string name;  // the Python function's name
    std::shared_ptr<Graph> graph;
    std::string python_signature;  // JSON (python/graphfn/saved/structure.py); opaque here
  };
  // A function callable by named tensors: one input name per graph argument and one output
  // name per graph result, in the graph's order.
  struct Signature {
    std::string key;  // "serving_default"
    int function = -1;
    std::vector<std::string> input_names;
    std::vector<std::string> output_names;
  };

  std::string object_graph;  // JSON: the saved Python objects and their attributes; opaque here
  std::vector<Variable> variables;
  std::vector<Function> functions;
  std::vector<Signature> signatures;
};

Status encode_saved_graph(const SavedGraph& saved, std::string* bytes);
Status decode_saved_graph(std::string_view bytes, SavedGraph* saved, const LoadOptions& options = {});

// <dir>/saved_graph.gfn. Writing creates `dir` if needed and replaces the file atomically.
Status write_saved_graph(const std::string& dir, const SavedGraph& saved);
Status read_saved_graph(const std::string& dir, SavedGraph* saved, const LoadOptions& options = {});

}  // namespace graphfn
