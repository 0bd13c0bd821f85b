// What a loaded graph may do beyond computing (serialize/load_policy.h): a PrintV2 that appends
// to a file is refused unless LoadOptions allow it, wherever it sits, and the ops that act
// outside their outputs stay a reviewed list.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "harness.h"
#include "fuzz/raw_builders.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/runtime/saved_model.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

// The sample's "f" with a print of its StringFormat text to `stream`, appended to `g` (f itself
// or one of its branches, when `g` is a branch the print gets its own text).
RawSavedGraph sample_with_print(const std::string& stream, bool in_branch = false) {
  RawSavedGraph raw = raw_sample();
  RawGraph& f = raw.functions[0].graph;
  RawGraph* g = &f;
  RawEndpoint text{node_index(f, "StringFormat"), 0};
  if (in_branch) {
    g = &find_attr(f.nodes[node_index(f, "cond")], "then_branch")->funcs[0].graph;
    text = {add_node(*g, raw_node("text", "StringFormat", {{0, 0}}, {{"template", raw_string("branch {}")},
                                                                      {"placeholder", raw_string("{}")},
                                                                      {"T", raw_types({1})}})),
            0};
  }
  add_node(*g, raw_node("print", "PrintV2", {text}, {{"output_stream", raw_string(stream)}, {"end", raw_string("\n")}}));
  return raw;
}

Status load(const RawSavedGraph& raw, const LoadOptions& options, std::shared_ptr<const SavedModel>* model) {
  SavedGraph saved;
  GRAPHFN_RETURN_IF_ERROR(decode_saved_graph(encode_raw(raw), &saved, options));
  return SavedModel::from_saved_graph(std::move(saved), model);
}

Status run_sample(const SavedModel& model) {
  std::map<std::string, Tensor> outputs;
  return model.signature("serving_default")->run({{"x", vec<float>({1, 2})}, {"flag", scalar<bool>(true)}}, &outputs);
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "graphfn_load_policy";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::filesystem::remove(path);
  return path.string();
}

}  // namespace

TEST_CASE("load policy: a print to a file is refused without the option, naming node and option") {
  const std::string path = temp_path("refused.txt");
  std::shared_ptr<const SavedModel> model;
  const Status s = load(sample_with_print("file://" + path), LoadOptions{}, &model);
  INFO(s.to_string());
  CHECK(s.code() == Code::kPermissionDenied);
  CHECK(s.message() == "function 'f': node 'print' (PrintV2) writes to the file " + path + " (output_stream='file://" +
                           path + "'); a loaded model may write files only when loaded with "
                           "graphfn.saved_model.LoadOptions(allow_file_output=True) (graphfn-run: --allow_file_output)");
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("load policy: a print to a file inside a branch function is refused too") {
  std::shared_ptr<const SavedModel> model;
  const Status s = load(sample_with_print("file:///tmp/graphfn_never_written.txt", true), LoadOptions{}, &model);
  INFO(s.to_string());
  CHECK(s.code() == Code::kPermissionDenied);
  CHECK(s.message().rfind("function 'f': function 'cond_true_1' of node 'cond': node 'print' (PrintV2)", 0) == 0);
}

TEST_CASE("load policy: with allow_file_output the print appends to its file") {
  const std::string path = temp_path("allowed.txt");
  LoadOptions options;
  options.allow_file_output = true;
  std::shared_ptr<const SavedModel> model;
  REQUIRE(load(sample_with_print("file://" + path), options, &model).ok());
  REQUIRE(run_sample(*model).ok());
  REQUIRE(run_sample(*model).ok());
  // y = x * v + 3 with v = 2: [5, 7], printed by StringFormat("y={}") once per run
  CHECK(file_text(path) == "y=[5 7]\ny=[5 7]\n");
}

TEST_CASE("load policy: a node calling a Python function is refused, whatever the options") {
  for (const char* op : {"EagerPyFunc", "PyFunc", "PyFuncStateless"}) {
    INFO(op);
    RawSavedGraph raw = raw_sample();
    RawGraph& f = raw.functions[0].graph;
    add_node(f, raw_node("call", op, {{0, 0}}, {{"token", raw_string("pyfunc_0")}, {"Tin", raw_types({1})},
                                               {"Tout", raw_types({1})}}));
    LoadOptions options;
    options.allow_file_output = true;
    std::shared_ptr<const SavedModel> model;
    const Status s = load(raw, options, &model);
    INFO(s.to_string());
    CHECK(s.code() == Code::kPermissionDenied);
    CHECK(s.message() == std::string("function 'f': node 'call' (") + op +
                             ") calls the Python function 'pyfunc_0' of the process that saved the model "
                             "(tf.py_function / tf.numpy_function); a loaded model cannot call Python functions");
  }
}

TEST_CASE("load policy: ReadFile is always refused, WriteFile needs allow_file_output") {
  for (const char* op : {"ReadFile", "WriteFile"}) {
    RawSavedGraph raw = raw_sample();
    RawGraph& f = raw.functions[0].graph;
    const RawEndpoint text{node_index(f, "StringFormat"), 0};
    std::vector<RawEndpoint> inputs = {text};
    if (std::string(op) == "WriteFile") inputs.push_back(text);
    add_node(f, raw_node("file", op, inputs));
    for (bool allow : {false, true}) {
      LoadOptions options;
      options.allow_file_output = allow;
      std::shared_ptr<const SavedModel> model;
      const Status s = load(raw, options, &model);
      INFO(op << " allow_file_output=" << allow << ": " << s.to_string());
      if (std::string(op) == "WriteFile" && allow) {
        CHECK(s.ok());
        continue;
      }
      CHECK(s.code() == Code::kPermissionDenied);
      CHECK(s.message() == (std::string(op) == "ReadFile"
                                ? std::string("function 'f': node 'file' (ReadFile) reads a file; a loaded model cannot "
                                              "read files (tf.io.read_file)")
                                : std::string("function 'f': node 'file' (WriteFile) writes a file; a loaded model may "
                                              "write files only when loaded with graphfn.saved_model.LoadOptions("
                                              "allow_file_output=True) (graphfn-run: --allow_file_output)")));
    }
  }
}

TEST_CASE("load policy: prints to stderr and stdout need no option") {
  for (const char* stream : {"stderr", "stdout"}) {
    std::shared_ptr<const SavedModel> model;
    const Status s = load(sample_with_print(stream), LoadOptions{}, &model);
    INFO(stream << ": " << s.to_string());
    CHECK(s.ok());
  }
}

TEST_CASE("load policy: the stateful ops are the reviewed ones") {
  // Every op that acts beyond its outputs, with why a loaded graph may hold it. An op added to
  // this list must be reviewed for load_policy.cc: does it touch files, the network, processes
  // or Python? (PrintV2 does: file:// output streams are checked there.)
  const std::vector<std::string> reviewed = {
      "Assert",                                                          // fails the run
      "AssignAddVariableOp", "AssignSubVariableOp", "AssignVariableOp",  // the model's own variables
      "Case",                                                            // the model's functions
      "CheckNumerics",                                                   // fails the run
      "EagerPyFunc",                                                     // Python: refused on load
      "GraphfnDatasetIterator", "GraphfnIteratorGetNext",                // in-memory tf.data iterators
      "GraphfnIteratorGetNextAsOptional", "GraphfnIteratorHasNext",
      "HashTableV2",                                                     // in-memory hash tables
      "If",                                                              // the model's functions
      "InitializeTableV2", "LookupTableExportV2", "LookupTableFindV2",   // in-memory hash tables
      "LookupTableImportV2", "LookupTableSizeV2",
      "Multinomial",                                                     // random numbers
      "PrintV2",                                                         // stderr/stdout; files gated
      "PyFunc",                                                          // Python: refused on load
      "RandomGamma", "RandomPoissonV2", "RandomShuffle",                 // random numbers
      "RandomStandardNormal", "RandomUniform", "RandomUniformInt",       // random numbers
      "ReadFile",                                                        // reads a file: refused on load
      "ResourceScatterAdd", "ResourceScatterDiv", "ResourceScatterMax",  // the model's own variables
      "ResourceScatterMin", "ResourceScatterMul", "ResourceScatterNdAdd", "ResourceScatterNdMax",
      "ResourceScatterNdMin", "ResourceScatterNdSub", "ResourceScatterNdUpdate", "ResourceScatterSub",
      "ResourceScatterUpdate", "ResourceStridedSliceAssign",
      "TruncatedNormal",                                                 // random numbers
      "While",                                                           // runs the model's functions
      "WriteFile",                                                       // writes a file: allow_file_output
  };  // sorted
  std::vector<std::string> stateful;
  for (const std::string& name : OpRegistry::global().op_names()) {
    if (OpRegistry::global().find(name)->stateful) stateful.push_back(name);
  }
  std::sort(stateful.begin(), stateful.end());
  CHECK(stateful == reviewed);
}
