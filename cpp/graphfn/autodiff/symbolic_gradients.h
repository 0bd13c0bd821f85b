// Symbolic differentiation of a graph (TF's gradients_util, and what a GradientTape does inside a
// function): the nodes computing d(sum of targets)/d(source) are appended to the same graph by a
// GraphGradBuilder. Walking the differentiated nodes backwards (creation order is topological),
// the gradients reaching each output are summed and the node's gradient function (autodiff/gradient.h,
// the same one the eager tape calls) gives one gradient per input.
//
// Variables: a captured variable is a Const of dtype resource, possibly several for one variable
// (one per read); they all stand for the first one (resource_alias), so the gradients of every
// read of a variable are summed.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "graphfn/ir/graph.h"

namespace graphfn {

struct GradientRequest {
  std::vector<Endpoint> targets;
  std::vector<Endpoint> target_grads;  // empty, or one per target (node -1: ones)
  std::vector<Endpoint> sources;
  // The nodes gradients flow through: a tape's recorded nodes (recorded_nodes), or, when empty,
  // every node that depends on a source through trainable values (tf.gradients).
  std::vector<bool> recorded;
  // With `recorded`: what the tape watched. Gradients reach only watched values and outputs of
  // recorded nodes (a source that is neither gets one only as a target). Without: the sources.
  std::vector<Endpoint> watched;
  // tf.gradients' stop_gradients: values gradients reach (when they are sources) but do not pass.
  std::vector<Endpoint> stop;
  std::string scope = "gradients/";
};

// One gradient per source; node -1 where none flows (TF's None).
Status add_gradients(Graph& graph, const GradientRequest& request, std::vector<Endpoint>* grads);

// A watched value and the first node that sees it watched (nodes created before did not).
struct Watch {
  Endpoint endpoint;
  int since = 0;
};

// What a tape records: node n is recorded if `active[n]` (it was created while the tape
// recorded), it is differentiable, and one of its inputs of a trainable dtype is tracked at n
// (watched since before n, or an output of a recorded node). Outputs of recorded nodes are
// tracked from then on.
std::vector<bool> recorded_nodes(const Graph& graph, const std::vector<Watch>& watched, const std::vector<bool>& active);

// The endpoint that stands for `e`: for a Const holding a resource handle, the graph's first
// Const holding the same resource; else `e`.
Endpoint resource_alias(const Graph& graph, Endpoint e);
// The graph's first Const holding the resource `handle` (a resource tensor), or node -1.
Endpoint find_resource_const(const Graph& graph, const void* resource);
// The resource a Const of dtype resource holds (null for other nodes).
const void* resource_of(const Graph& graph, Endpoint e);

}  // namespace graphfn
