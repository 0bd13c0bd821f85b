#include "graphfn/core/shape_merge.h"

namespace graphfn {

Shape most_specific_common_shape(const Shape& a, const Shape& b) {
  if (!a.known_rank() || !b.known_rank() || a.rank() != b.rank()) return Shape::unknown_rank();
  Shape out = a;
  for (int i = 0; i < a.rank(); ++i) {
    if (a.dim(i) != b.dim(i)) out.set_dim(i, Shape::kUnknownDim);
  }
  return out;
}

}  // namespace graphfn
