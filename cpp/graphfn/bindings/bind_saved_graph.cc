// Saved graphs from Python (python/graphfn/saved/): writes and reads the one format that the C++
// runner also reads (serialize/saved_graph.h). Python gathers the objects, functions and
// signatures; these two functions convert them and forward.
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/serialize/saved_graph.h"

namespace graphfn {
namespace {

using VariableIn = std::tuple<std::string, bool, py::object>;  // name, trainable, handle tensor
using FunctionIn = std::tuple<std::string, std::shared_ptr<Graph>, std::string>;
using SignatureIn = std::tuple<std::string, int, std::vector<std::string>, std::vector<std::string>>;

std::shared_ptr<VariableResource> variable_of(const py::object& handle) {
  const Tensor* t = eager_tensor_ptr(handle);
  if (!t || t->dtype() != DType::kResource || t->num_elements() != 1) {
    throw py::type_error("expected a variable's resource handle");
  }
  auto var = std::dynamic_pointer_cast<VariableResource>(*t->data<ResourceHandle>());
  if (!var) throw py::type_error("the resource handle does not refer to a variable");
  return var;
}

void write(const std::string& dir, const std::string& object_graph, const std::vector<VariableIn>& variables,
           const std::vector<FunctionIn>& functions, const std::vector<SignatureIn>& signatures) {
  SavedGraph saved;
  saved.object_graph = object_graph;
  for (const auto& [name, trainable, handle] : variables) saved.variables.push_back({name, trainable, variable_of(handle)});
  for (const auto& [name, graph, signature] : functions) saved.functions.push_back({name, graph, signature});
  for (const auto& [key, function, inputs, outputs] : signatures) {
    saved.signatures.push_back({key, function, inputs, outputs});
  }
  Status s;
  {
    py::gil_scoped_release release;
    s = write_saved_graph(dir, saved);
  }
  throw_if_error(s);
}

// Names come from the file: decoded leniently (the reader checked they are UTF-8 anyway).
py::str text(const std::string& s) {
  return py::reinterpret_steal<py::str>(PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace"));
}

std::vector<py::str> texts(const std::vector<std::string>& names) {
  std::vector<py::str> out;
  for (const std::string& n : names) out.push_back(text(n));
  return out;
}

// (object_graph, [(name, trainable, handle, value)], [(name, graph, signature)],
//  [(key, function, input names, output names)])
py::tuple read(const std::string& dir, bool allow_file_output) {
  SavedGraph saved;
  Status s;
  LoadOptions options;
  options.allow_file_output = allow_file_output;
  {
    py::gil_scoped_release release;
    s = read_saved_graph(dir, &saved, options);
  }
  throw_if_error(s);
  py::list variables, functions, signatures;
  for (const SavedGraph::Variable& v : saved.variables) {
    Tensor value;
    throw_if_error(v.resource->read(&value));
    variables.append(py::make_tuple(text(v.name), v.trainable, make_resource_tensor(v.resource), value));
  }
  for (const SavedGraph::Function& f : saved.functions) {
    functions.append(py::make_tuple(text(f.name), f.graph, py::bytes(f.python_signature)));
  }
  for (const SavedGraph::Signature& sig : saved.signatures) {
    signatures.append(py::make_tuple(text(sig.key), sig.function, texts(sig.input_names), texts(sig.output_names)));
  }
  return py::make_tuple(py::bytes(saved.object_graph), variables, functions, signatures);
}

}  // namespace

void bind_saved_graph(py::module_& m) {
  m.def("write_saved_graph", &write, py::arg("dir"), py::arg("object_graph"), py::arg("variables"),
        py::arg("functions"), py::arg("signatures"));
  m.def("read_saved_graph", &read, py::arg("dir"), py::arg("allow_file_output") = false);
  m.attr("SAVED_GRAPH_FILE_NAME") = kSavedGraphFileName;
}

}  // namespace graphfn
