// A graph printed as TensorFlow prints `graph.as_graph_def()`: protobuf text format of a
// GraphDef (nodes with their inputs and attrs, attrs sorted by key, constants as TensorProtos).
#pragma once
#include <string>

#include "graphfn/ir/graph.h"

namespace graphfn {

std::string graph_def_text(const Graph& graph);
// One node as TF prints a NodeDef (str(op)): its fields without the enclosing "node { }".
std::string node_def_text(const Graph& graph, int id);

}  // namespace graphfn
