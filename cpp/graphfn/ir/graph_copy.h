// Copying part of a graph into another: how a backward graph is cut out of the graph its gradient
// nodes were appended to (autodiff/symbolic_gradients.h). The copied nodes keep their ops, attrs and
// names (made unique in the destination); what they read from outside the copied part is
// resolved by the caller (a placeholder for a saved forward value, a list read in a loop body).
#pragma once
#include <functional>
#include <unordered_map>
#include <vector>

#include "graphfn/ir/graph.h"

namespace graphfn {

struct EndpointHash {
  size_t operator()(const Endpoint& e) const {
    return std::hash<int64_t>()((static_cast<int64_t>(e.node) << 32) ^ static_cast<uint32_t>(e.index));
  }
};
using EndpointMap = std::unordered_map<Endpoint, Endpoint, EndpointHash>;

// Copies into `out` the nodes numbered `first` and up that `roots` need (data and control
// inputs, transitively), in order. An input from an earlier node, or one listed in `mapped`, is
// not copied: `mapped` gives its replacement, else `external(endpoint, &replacement)` is called
// once per distinct endpoint when first needed (it may add nodes to `out`), and the answer is
// remembered in `mapped`. Control inputs on nodes that are not copied are dropped.
// *out_roots gets the copies of `roots`.
using ExternalFn = std::function<Status(Endpoint, Endpoint*)>;
Status copy_subgraph(const Graph& graph, int first, const std::vector<Endpoint>& roots, Graph* out,
                     EndpointMap* mapped, const ExternalFn& external, std::vector<Endpoint>* out_roots);

// Copies Const node `id` of `graph` into `out` (same name, made unique); returns its endpoint.
Status copy_const(const Graph& graph, int id, Graph* out, Endpoint* copy);

}  // namespace graphfn
