#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace shape_fns {

Status unchanged(InferenceContext& c) {
  c.set_output(0, c.input_dtype(0), c.input_shape(0));
  return Status::OK();
}

Status dims_must_be_equal(int64_t a, int64_t b) {
  return errors::InvalidArgument("Dimensions must be equal, but are ", a, " and ", b);
}

namespace {

// The broadcast of a and b when it is one of them, else null: equal shapes, or a scalar operand
// (the usual element-wise op), need no shape built. broadcast_shapes gives the same result.
const Shape* broadcast_is_operand(const Shape& a, const Shape& b) {
  if (a == b || (b.known_rank() && b.rank() == 0)) return &a;
  if (a.known_rank() && a.rank() == 0) return &b;
  return nullptr;
}

// Eager ops fail with the kernel's words; while tracing, TF's shape function names the first
// (leftmost) pair of dimensions that cannot broadcast.
Status broadcast_inputs(const InferenceContext& c, Shape* out) {
  const Shape& a = c.input_shape(0);
  const Shape& b = c.input_shape(1);
  Status s = broadcast_shapes(a, b, out);
  if (s.ok() || c.is_eager()) return s;
  const int rank = std::max(a.rank(), b.rank());
  for (int i = 0; i < rank; ++i) {
    const int ia = a.rank() - rank + i, ib = b.rank() - rank + i;
    const int64_t da = ia >= 0 ? a.dim(ia) : 1, db = ib >= 0 ? b.dim(ib) : 1;
    if (da > 1 && db > 1 && da != db) return dims_must_be_equal(da, db);
  }
  return s;
}

}  // namespace

Status broadcast_binary(InferenceContext& c) {
  if (const Shape* same = broadcast_is_operand(c.input_shape(0), c.input_shape(1))) {
    c.set_output(0, c.input_dtype(0), *same);
    return Status::OK();
  }
  Shape out;
  GRAPHFN_RETURN_IF_ERROR(broadcast_inputs(c, &out));
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

Status broadcast_binary_to_bool(InferenceContext& c) {
  if (const Shape* same = broadcast_is_operand(c.input_shape(0), c.input_shape(1))) {
    c.set_output(0, DType::kBool, *same);
    return Status::OK();
  }
  Shape out;
  GRAPHFN_RETURN_IF_ERROR(broadcast_inputs(c, &out));
  c.set_output(0, DType::kBool, std::move(out));
  return Status::OK();
}

Status set_checked_output(InferenceContext& c, DType dt, Shape out) {
  int64_t n = 0;
  if (out.fully_defined()) GRAPHFN_RETURN_IF_ERROR(checked_num_elements(out, &n));
  c.set_output(0, dt, std::move(out));
  return Status::OK();
}

}  // namespace shape_fns
}  // namespace graphfn
