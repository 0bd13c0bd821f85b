// Gradients of the reductions (ops/reduction_ops.cc): the output gradient, reshaped to the
// kept-dims shape, is broadcast back over the reduced axes.
#include <limits>

#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::x;
using Grads = std::vector<GradValue>;

bool fully_known(const Shape& s) { return s.known_rank() && s.fully_defined(); }

// The input's shape with the reduced axes set to 1 (the output's kept-dims shape): a constant
// when the input's static shape is known, else Shape(x) with those entries replaced (graphs with
// unknown dims; the rank and the axes must be known).
Status kept_dims_shape(GradBuilder& b, const GradInputs& in, GradValue* kept_shape) {
  const Shape s = b.static_shape(x(in));
  if (!s.known_rank()) return errors::Unimplemented("reduction gradient needs a known input rank");
  std::vector<int64_t> axes;
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, in.inputs[1], "reduction axis", &axes));
  std::vector<int64_t> kept(s.dims().begin(), s.dims().end());
  Tensor reduced(DType::kBool, Shape{static_cast<int64_t>(kept.size())});
  std::fill(reduced.data<bool>(), reduced.data<bool>() + kept.size(), false);
  for (int64_t a : axes) {
    int axis = 0;
    GRAPHFN_RETURN_IF_ERROR(normalize_axis(a, s.rank(), &axis, "axis"));
    kept[axis] = 1;
    reduced.data<bool>()[axis] = true;
  }
  if (fully_known(s)) {
    *kept_shape = b.int_vector(kept);
  } else {
    const GradValue ones = b.int_vector(std::vector<int64_t>(kept.size(), 1));
    *kept_shape = b.op("SelectV2", {b.constant(reduced), ones, b.op("Shape", {x(in)})});
  }
  return b.status();
}

// dy broadcast over the reduced axes; also returns dy and the output reshaped to kept dims.
Status broadcast_back(GradBuilder& b, const GradInputs& in, GradValue* result, GradValue* dy_kept = nullptr,
                      GradValue* out_kept = nullptr) {
  GradValue kept_shape;
  GRAPHFN_RETURN_IF_ERROR(kept_dims_shape(b, in, &kept_shape));
  const GradValue g = b.op("Reshape", {dy(in), kept_shape});
  if (dy_kept) *dy_kept = g;
  if (out_kept) *out_kept = b.op("Reshape", {grad::out(in), kept_shape});
  const Shape input_shape = b.static_shape(x(in));
  const bool same = fully_known(input_shape) && b.static_shape(g) == input_shape;
  *result = same ? g : b.op("BroadcastTo", {g, b.shape_of(x(in))});
  return b.status();
}

Status sum_grad(GradBuilder& b, const GradInputs& in, Grads* g) { return broadcast_back(b, in, &(*g)[0]); }

Status mean_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  GradValue sum;
  GRAPHFN_RETURN_IF_ERROR(broadcast_back(b, in, &sum));
  const DType dt = b.dtype(x(in));
  const Shape in_shape = b.static_shape(x(in)), out_shape = b.static_shape(grad::out(in));
  GradValue factor;
  if (fully_known(in_shape) && fully_known(out_shape)) {
    factor = b.scalar(dt, static_cast<double>(in_shape.num_elements() / std::max<int64_t>(out_shape.num_elements(), 1)));
  } else {  // sizes known at run time only
    const GradValue n_out = b.op("Maximum", {b.op("Size", {grad::out(in)}), b.scalar(DType::kInt32, 1)});
    factor = b.op("Cast", {b.op("FloorDiv", {b.op("Size", {x(in)}), n_out})}, grad::attrs({{"DstT", dt}}));
  }
  (*g)[0] = b.op("RealDiv", {sum, factor});
  return b.status();
}

// Max/Min: the gradient is shared equally by the elements equal to the result.
Status min_max_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  GradValue dy_b, dy_kept, out_kept;
  GRAPHFN_RETURN_IF_ERROR(broadcast_back(b, in, &dy_b, &dy_kept, &out_kept));
  const DType dt = b.dtype(x(in));
  const GradValue indicators = b.op("Cast", {b.op("Equal", {out_kept, x(in)})}, grad::attrs({{"DstT", dt}}));
  const GradValue num_selected = b.op("Reshape", {b.op("Sum", {indicators, in.inputs[1]}), b.shape_of(dy_kept)});
  (*g)[0] = b.op("Mul", {b.op("RealDiv", {indicators, num_selected}), dy_kept});
  return b.status();
}

// Prod: each element's gradient is the product of the others in its reduced group, computed
// without division (zeros are fine) as exclusive cumulative products from both ends. The
// reduced axes are moved first and flattened: [reduced, other].
Status prod_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  GradValue dy_b;
  GRAPHFN_RETURN_IF_ERROR(broadcast_back(b, in, &dy_b));
  const Shape s = b.static_shape(x(in));
  if (!fully_known(s)) return errors::Unimplemented("Prod gradient needs a static input shape");
  std::vector<int64_t> axes;
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, in.inputs[1], "reduction axis", &axes));
  std::vector<bool> reduced(s.rank(), false);
  for (int64_t a : axes) {
    int axis = 0;
    GRAPHFN_RETURN_IF_ERROR(normalize_axis(a, s.rank(), &axis, "axis"));
    reduced[axis] = true;
  }
  std::vector<int64_t> perm, permuted_dims;
  int64_t reduced_num = 1, other_num = 1;
  for (int pass = 0; pass < 2; ++pass) {
    for (int d = 0; d < s.rank(); ++d) {
      if (reduced[d] != (pass == 0)) continue;
      perm.push_back(d);
      permuted_dims.push_back(s.dim(d));
      (pass == 0 ? reduced_num : other_num) *= s.dim(d);
    }
  }
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  const GradValue flat = b.op("Reshape", {b.op("Transpose", {x(in), b.int_vector(perm)}),
                                          b.int_vector({reduced_num, other_num})});
  const GradValue zero = b.scalar(DType::kInt32, 0);
  const GradValue left = b.op("Cumprod", {flat, zero}, grad::attrs({{"exclusive", true}}));
  const GradValue right = b.op("Cumprod", {flat, zero}, grad::attrs({{"exclusive", true}, {"reverse", true}}));
  const GradValue others = b.op("Reshape", {b.op("Mul", {left, right}), b.int_vector(permuted_dims)});
  (*g)[0] = b.op("Mul", {dy_b, b.op("Transpose", {others, b.int_vector(inverse)})});
  return b.status();
}

// Cumsum's gradient is the cumulative sum of dy in the other direction.
Status cumsum_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("Cumsum", {dy(in), in.inputs[1]},
                 grad::attrs({{"exclusive", in.attr_bool("exclusive")}, {"reverse", !in.attr_bool("reverse")}}));
  return b.status();
}

// Cumprod, as TF: cumsum(cumprod(x) * dy) in the other direction, divided by x (0 where x is 0,
// TF's div_no_nan: the gradient is then not exact at zeros, like TF's).
Status cumprod_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const bool exclusive = in.attr_bool("exclusive"), reverse = in.attr_bool("reverse");
  const GradValue prod = b.op("Cumprod", {x(in), in.inputs[1]},
                              grad::attrs({{"exclusive", exclusive}, {"reverse", reverse}}));
  const GradValue sums = b.op("Cumsum", {b.op("Mul", {prod, dy(in)}), in.inputs[1]},
                              grad::attrs({{"exclusive", exclusive}, {"reverse", !reverse}}));
  const GradValue zeros = b.zeros_like(x(in));
  const GradValue is_zero = b.op("Equal", {x(in), zeros});
  (*g)[0] = b.op("SelectV2", {is_zero, zeros, b.op("RealDiv", {sums, x(in)})});
  return b.status();
}

// EuclideanNorm, as TF: x / (norm / dy), the norm and dy with the reduced axes kept.
Status euclidean_norm_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  GradValue unused, dy_kept, out_kept;
  GRAPHFN_RETURN_IF_ERROR(broadcast_back(b, in, &unused, &dy_kept, &out_kept));
  (*g)[0] = b.op("RealDiv", {x(in), b.op("RealDiv", {out_kept, dy_kept})});
  return b.status();
}

// CumulativeLogsumexp, as TF: the positive and negative parts of dy, in log space, accumulated
// in the other direction.
Status cumulative_logsumexp_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const DType dt = b.dtype(x(in));
  const GradValue lowest = b.scalar(dt, dt == DType::kFloat64 ? std::numeric_limits<double>::lowest()
                                                             : std::numeric_limits<float>::lowest());
  const GradValue zero = b.scalar(dt, 0);
  const AttrMap scan = grad::attrs({{"exclusive", in.attr_bool("exclusive")}, {"reverse", !in.attr_bool("reverse")}});
  auto part = [&](const char* sign_test, const GradValue& magnitude) {
    const GradValue log_part = b.op("SelectV2", {b.op(sign_test, {dy(in), zero}), b.op("Log", {magnitude}), lowest});
    const GradValue summed =
        b.op("CumulativeLogsumexp", {b.op("Sub", {log_part, grad::out(in)}), in.inputs[1]}, scan);
    return b.op("Exp", {b.op("AddV2", {summed, x(in)})});
  };
  (*g)[0] = b.op("Sub", {part("Greater", dy(in)), part("Less", b.op("Neg", {dy(in)}))});
  return b.status();
}

}  // namespace

void register_reduction_gradients(OpRegistry& reg) {
  reg.set_gradient("Sum", sum_grad);
  reg.set_gradient("Mean", mean_grad);
  reg.set_gradient("Max", min_max_grad);
  reg.set_gradient("Min", min_max_grad);
  reg.set_gradient("Prod", prod_grad);
  reg.set_gradient("Cumsum", cumsum_grad);
  reg.set_gradient("Cumprod", cumprod_grad);
  reg.set_gradient("EuclideanNorm", euclidean_norm_grad);
  reg.set_gradient("CumulativeLogsumexp", cumulative_logsumexp_grad);
}

}  // namespace graphfn
