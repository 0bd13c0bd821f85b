// Gradients of the reductions (ops/reduction_ops.cc): the output gradient, reshaped to the
// kept-dims shape, is broadcast back over the reduced axes.
#include "graphfn/ops/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::x;
using Grads = std::vector<GradValue>;

// The input's static shape and the output's shape with reduced axes kept as 1.
Status kept_dims_shape(GradBuilder& b, const GradInputs& in, Shape* input_shape, std::vector<int64_t>* kept) {
  *input_shape = b.static_shape(x(in));
  if (!input_shape->known_rank() || !input_shape->fully_defined()) {
    return errors::Unimplemented("reduction gradient needs a static input shape");
  }
  std::vector<int64_t> axes;
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, in.inputs[1], "reduction axis", &axes));
  kept->assign(input_shape->dims().begin(), input_shape->dims().end());
  for (int64_t a : axes) {
    int axis = 0;
    GRAPHFN_RETURN_IF_ERROR(normalize_axis(a, input_shape->rank(), &axis, "axis"));
    (*kept)[axis] = 1;
  }
  return Status::OK();
}

// dy broadcast over the reduced axes; also returns dy and the output reshaped to kept dims.
Status broadcast_back(GradBuilder& b, const GradInputs& in, GradValue* result, GradValue* dy_kept = nullptr,
                      GradValue* out_kept = nullptr) {
  Shape input_shape;
  std::vector<int64_t> kept;
  GRAPHFN_RETURN_IF_ERROR(kept_dims_shape(b, in, &input_shape, &kept));
  const GradValue kept_shape = b.int_vector(kept);
  const GradValue g = b.op("Reshape", {dy(in), kept_shape});
  if (dy_kept) *dy_kept = g;
  if (out_kept) *out_kept = b.op("Reshape", {grad::out(in), kept_shape});
  *result = b.static_shape(g) == input_shape ? g : b.op("BroadcastTo", {g, b.shape_of(x(in))});
  return b.status();
}

Status sum_grad(GradBuilder& b, const GradInputs& in, Grads* g) { return broadcast_back(b, in, &(*g)[0]); }

Status mean_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  GradValue sum;
  GRAPHFN_RETURN_IF_ERROR(broadcast_back(b, in, &sum));
  const int64_t n_in = b.static_shape(x(in)).num_elements();
  const int64_t n_out = b.static_shape(grad::out(in)).num_elements();
  const int64_t factor = n_in / std::max<int64_t>(n_out, 1);
  (*g)[0] = b.op("RealDiv", {sum, b.scalar(b.dtype(x(in)), static_cast<double>(factor))});
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

}  // namespace

void register_reduction_gradients(OpRegistry& reg) {
  reg.set_gradient("Sum", sum_grad);
  reg.set_gradient("Mean", mean_grad);
  reg.set_gradient("Max", min_max_grad);
  reg.set_gradient("Min", min_max_grad);
}

}  // namespace graphfn
