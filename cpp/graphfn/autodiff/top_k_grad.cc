// Gradient of TopKV2 (ops/top_k_ops.cc): each value's gradient goes back to the input element it
// came from (TF scatters it; here a segment sum over flat positions does). InTopKV2 has none.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::x;
using Grads = std::vector<GradValue>;

Status top_k_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!dy(in)) return b.status();
  const Shape s = b.static_shape(x(in)), kept = b.static_shape(in.outputs[1]);
  if (!s.known_rank() || !s.fully_defined() || !kept.known_rank() || !kept.fully_defined()) {
    return errors::Unimplemented("TopKV2 gradient needs static shapes");
  }
  const int64_t columns = s.dim(s.rank() - 1), k = kept.dim(kept.rank() - 1);
  const int64_t rows = columns == 0 ? 0 : s.num_elements() / columns;
  if (rows == 0 || k == 0) {
    (*g)[0] = b.zeros_like(x(in));
    return b.status();
  }
  // Flat position of each kept element: its row's start plus its index.
  Tensor row_starts(DType::kInt64, Shape{rows, 1});
  for (int64_t r = 0; r < rows; ++r) row_starts.data<int64_t>()[r] = r * columns;
  const GradValue indices = b.op("Reshape", {in.outputs[1], b.int_vector({rows, k})});
  const GradValue positions = b.op(
      "Reshape", {b.op("AddV2", {b.op("Cast", {indices}, grad::attrs({{"DstT", DType::kInt64}})), b.constant(row_starts)}),
                  b.int_vector({rows * k})});
  const GradValue flat_dy = b.op("Reshape", {dy(in), b.int_vector({rows * k})});
  const GradValue summed =
      b.op("UnsortedSegmentSum", {flat_dy, positions, b.scalar(DType::kInt64, static_cast<double>(rows * columns))});
  (*g)[0] = b.op("Reshape", {summed, b.shape_of(x(in))});
  return b.status();
}

}  // namespace

void register_top_k_gradients(OpRegistry& reg) {
  reg.set_gradient("TopKV2", top_k_grad);
  reg.set_not_differentiable("InTopKV2");
}

}  // namespace graphfn
