// Encoding of a Graph (nodes, attrs, the subgraphs of func attrs, arguments and results) for
// the saved-graph format (docs/saving.md).
//
// A graph is read back by replaying its nodes through Graph::add_node, so a loaded graph gets
// exactly the type resolution and shape inference of a traced one (output dtypes and shapes
// are never read from the file), then checked by verify_graph. Before that, the reader checks
// what add_node assumes: op names are registered, attrs match the OpDef (ir/attr_check.h),
// inputs refer to outputs of earlier nodes (so no cycles), names are unique, and func attrs nest
// at most kMaxFunctionDepth deep.
#pragma once
#include <memory>

#include "graphfn/ir/graph.h"
#include "graphfn/serialize/tensor_codec.h"

namespace graphfn {

constexpr int kMaxFunctionDepth = 32;
constexpr int64_t kMaxGraphItems = int64_t(1) << 31;  // nodes, inputs, attrs, ... (ids are ints)

Status write_graph(ByteWriter& w, const Graph& graph, const ResourceToIndex* resources);
// Errors name the node (and the enclosing functions) that is wrong.
Status read_graph(ByteReader& r, const IndexToResource* resources, std::shared_ptr<Graph>* out);

}  // namespace graphfn
