// Betainc (tf.math.betainc): the regularized incomplete beta function I_x(a, b). TF does not
// broadcast it as the element-wise ops do: every non-scalar input must have one same shape,
// scalars are repeated. float and double only (TF's list).
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

// Running: the kernel's pairwise check. Building a graph: the non-scalar shapes merged, with
// TF's merge texts.
Status betainc_shape(InferenceContext& c) {
  const char* names[] = {"a", "b", "x"};
  const DType t = c.type_attr("T");
  if (c.is_eager()) {
    for (int i = 0; i < 3; ++i) {
      for (int j = i + 1; j < 3; ++j) {
        const Shape& si = c.input_shape(i);
        const Shape& sj = c.input_shape(j);
        if (si.rank() > 0 && sj.rank() > 0 && si != sj) {
          return errors::InvalidArgument("Shapes of ", names[i], " and ", names[j], " are inconsistent: ",
                                         si.to_string(), " vs. ", sj.to_string());
        }
      }
    }
  }
  Shape merged = Shape::unknown_rank();
  Shape some_non_scalar = Shape::unknown_rank();
  int scalars = 0;
  for (int i = 0; i < 3; ++i) {
    const Shape& in = c.input_shape(i);
    if (!in.known_rank()) {
      some_non_scalar = in;  // a scalar or not: decided when it runs
      continue;
    }
    if (in.rank() == 0) {
      ++scalars;
      continue;
    }
    if (merged.known_rank()) {
      if (merged.rank() != in.rank()) {
        return errors::InvalidArgument("Shapes must be equal rank, but are ", merged.rank(), " and ", in.rank());
      }
      std::vector<int64_t> dims(merged.dims().begin(), merged.dims().end());
      for (int d = 0; d < in.rank(); ++d) {
        if (dims[d] >= 0 && in.dim(d) >= 0 && dims[d] != in.dim(d)) {
          return errors::InvalidArgument("Dimension ", d, " in both shapes must be equal, but are ", dims[d], " and ",
                                         in.dim(d), ". Shapes are ", merged.to_string(), " and ", in.to_string(), ".");
        }
        if (dims[d] < 0) dims[d] = in.dim(d);
      }
      merged = Shape(dims);
    } else {
      merged = in;
    }
    some_non_scalar = merged;
  }
  if (scalars == 3) {
    c.set_output(0, t, Shape{});
  } else if (scalars == 2) {
    c.set_output(0, t, some_non_scalar);
  } else {
    c.set_output(0, t, merged);
  }
  return Status::OK();
}

}  // namespace

void register_betainc_ops(OpRegistry& reg) {
  reg.op("Betainc").input("a: T").input("b: T").input("x: T").output("z: T").attr("T: {float, double}")
      .shape_fn(betainc_shape, true);
}

}  // namespace graphfn
