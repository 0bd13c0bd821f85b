// Common-subexpression elimination: pure nodes with the same op, inputs, control inputs and attrs
// compute the same value, so later ones are replaced by the first (their uses are redirected; the
// duplicates become unused and the plan prunes them). Identical constants merge too.
#pragma once
#include "graphfn/ir/graph.h"

namespace graphfn {

// Merges in one sweep in creation order: inputs are compared after earlier merges, so whole
// duplicated chains collapse. Commutative ops also match with their two inputs swapped.
// Returns true if anything changed.
bool eliminate_common_subexpressions(Graph& graph);

}  // namespace graphfn
