// Arithmetic simplification: operations that return one of their inputs unchanged are bypassed
// (their uses read that input directly): x*1, 1*x, x+0, 0+x, x-0, x/1, Identity, Neg(Neg(x)).
#pragma once
#include "graphfn/ir/graph.h"

namespace graphfn {

// Simplifies in one sweep in creation order (so Identity chains collapse). A node is bypassed
// only when that cannot change what its consumers see: no control inputs, and for the binary
// rules the result's dtype and fully known shape equal the kept input's (x + zeros([3]) with a
// scalar x broadcasts, so it stays). Returns true if anything changed.
bool simplify_arithmetic(Graph& graph);

}  // namespace graphfn
