// Shapes that several values share: the outputs of a cond's branches, a gradient's parts.
#pragma once
#include "graphfn/core/shape.h"

namespace graphfn {

// The most specific shape both `a` and `b` satisfy: their common rank with the dims they agree
// on (others unknown), or an unknown rank when the ranks differ or one is unknown.
Shape most_specific_common_shape(const Shape& a, const Shape& b);

}  // namespace graphfn
