// Ops that create tensors from a few parameters: Fill, ZerosLike, OnesLike, Eye, Range, OneHot.
#include <cmath>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status fill_shape(InferenceContext& c) {
  const Shape& dims_shape = c.input_shape(0);
  const Shape& value = c.input_shape(1);
  if (dims_shape.known_rank() && !is_legacy_vector(dims_shape)) {
    return errors::InvalidArgument("dims must represent a vector, got shape ", dims_shape);
  }
  if (value.known_rank() && !is_legacy_scalar(value)) {
    return errors::InvalidArgument("value must represent a scalar, got shape ", value);
  }
  const Tensor* dims_t = c.input_value(0);
  if (!dims_t && c.input_shape_value(0)) {  // partly known dims (`tf.fill(tf.shape(x), v)`)
    c.set_output(0, c.input_dtype(1), *c.input_shape_value(0));
    return Status::OK();
  }
  if (!dims_t) {  // the output rank is the length of `dims`, if that is known
    c.set_output(0, c.input_dtype(1), unknown_dims(static_length(dims_shape)));
    return Status::OK();
  }
  std::vector<int64_t> dims;
  GRAPHFN_RETURN_IF_ERROR(int_values(*dims_t, &dims));
  for (int64_t d : dims) {
    if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
  }
  Shape out(std::move(dims));
  GRAPHFN_RETURN_IF_ERROR(check_output_size(out, c.input_dtype(1)));
  c.set_output(0, c.input_dtype(1), std::move(out));
  return Status::OK();
}

// Eye(num_rows, num_columns, batch_shape): batch_shape + [num_rows, num_columns] identities.
// Sizes are checked in TF's order (batch dims, then the diagonal's length). Unknown values
// (graph building) give unknown dims.
Status eye_shape(InferenceContext& c) {
  const char* names[] = {"num_rows", "num_columns"};
  int64_t size[2] = {0, 0};
  bool known[2] = {false, false};
  for (int i = 0; i < 2; ++i) {
    const Shape& s = c.input_shape(i);
    if (s.fully_defined() && s.num_elements() != 1) {
      return errors::InvalidArgument(names[i], " must be a scalar, got shape ", s);
    }
    if (const Tensor* v = c.input_value(i)) {
      size[i] = first_int(*v);
      known[i] = true;
    }
  }
  const Shape& batch_shape = c.input_shape(2);
  if (batch_shape.known_rank() && !is_legacy_vector(batch_shape)) {
    return errors::InvalidArgument("batch_shape must be a vector, got shape ", batch_shape);
  }
  const Tensor* batch = c.input_value(2);
  std::vector<int64_t> dims;
  if (batch) {
    GRAPHFN_RETURN_IF_ERROR(int_values(*batch, &dims));
    for (int64_t d : dims) {
      if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
    }
  } else if (static_length(batch_shape) >= 0) {
    dims = unknown_dims(static_length(batch_shape)).dims();
  }
  // The diagonal's length, min(rows, cols), when it can be known to be negative.
  const int64_t diagonal = known[0] && known[1] ? std::min(size[0], size[1]) : known[0] ? size[0] : size[1];
  if ((known[0] || known[1]) && diagonal < 0) return errors::InvalidArgument("Dimension ", diagonal, " must be >= 0");
  if (!batch && static_length(batch_shape) < 0) {
    c.set_output(0, c.type_attr("dtype"), Shape::unknown_rank());
    return Status::OK();
  }
  dims.push_back(known[0] ? size[0] : Shape::kUnknownDim);
  dims.push_back(known[1] ? size[1] : Shape::kUnknownDim);
  Shape out(std::move(dims));
  const DType dt = c.type_attr("dtype");
  GRAPHFN_RETURN_IF_ERROR(check_output_size(out, dt));
  c.set_output(0, dt, std::move(out));
  return Status::OK();
}

// Number of elements of range(start, limit, delta), validated like TF's Range kernel.
template <typename T>
Status range_size(T start, T limit, T delta, int64_t* size) {
  if (delta == 0) return errors::InvalidArgument("Requires delta != 0: ", delta);
  if (delta > 0 && !(start <= limit)) {
    return errors::InvalidArgument("Requires start <= limit when delta > 0: ", start, "/", limit);
  }
  if (delta < 0 && !(start >= limit)) {
    return errors::InvalidArgument("Requires start >= limit when delta < 0: ", start, "/", limit);
  }
  if constexpr (std::is_integral_v<T>) {
    // Both ends are int64-representable, so their distance fits in uint64.
    const uint64_t distance = delta > 0 ? uint64_t(limit) - uint64_t(start) : uint64_t(start) - uint64_t(limit);
    const uint64_t step = delta > 0 ? uint64_t(delta) : uint64_t(0) - uint64_t(delta);
    const uint64_t n = distance == 0 ? 0 : 1 + (distance - 1) / step;
    if (n > static_cast<uint64_t>(INT64_MAX)) {
      return errors::InvalidArgument("Requires ((limit - start) / delta) <= ", INT64_MAX);
    }
    *size = static_cast<int64_t>(n);
  } else {
    // In T's precision, as TF computes it (float32 1 / 1e-10f is exactly 1e10).
    const T n = std::ceil(std::abs((limit - start) / delta));
    if (!(static_cast<double>(n) <= 9.2233720368547758e18)) {  // also rejects NaN and inf
      return errors::InvalidArgument("Requires ((limit - start) / delta) <= ", INT64_MAX);
    }
    *size = static_cast<int64_t>(n);
  }
  return Status::OK();
}

Status range_shape(InferenceContext& c) {
  const char* names[] = {"start", "limit", "delta"};
  for (int i = 0; i < 3; ++i) {
    const Shape& s = c.input_shape(i);
    if (s.known_rank() && !is_legacy_scalar(s)) {
      return errors::InvalidArgument(names[i], " must be a scalar, not shape ", s);
    }
  }
  const DType dt = c.type_attr("Tidx");
  if (!c.input_value(0) || !c.input_value(1) || !c.input_value(2)) {
    c.set_output(0, dt, Shape{Shape::kUnknownDim});
    return Status::OK();
  }
  int64_t size = 0;
  Status s;
  visit_dtype(dt, NumericTypes{}, [&](auto tag) {
    using T = decltype(tag);
    // Integers widen to int64 so the size computation cannot overflow.
    using Wide = std::conditional_t<std::is_integral_v<T>, int64_t, T>;
    auto value = [&](int i) { return static_cast<Wide>(*c.input_value(i)->template data<T>()); };
    s = range_size<Wide>(value(0), value(1), value(2), &size);
  });
  GRAPHFN_RETURN_IF_ERROR(s);
  Shape out{size};
  GRAPHFN_RETURN_IF_ERROR(check_output_size(out, dt));
  c.set_output(0, dt, std::move(out));
  return Status::OK();
}

Status one_hot_shape(InferenceContext& c) {
  Shape out = c.input_shape(0);
  const int out_rank = out.rank() + 1;
  const int64_t axis = c.attrs().get_int("axis", -1);
  if (out.known_rank() && axis != -1 && (axis < 0 || axis >= out_rank)) {
    return errors::InvalidArgument("Expected axis to be -1 or between [0, ", out_rank, ").  But received: ", axis);
  }
  const Shape& depth_shape = c.input_shape(1);
  if (depth_shape.known_rank() && depth_shape.rank() != 0) {
    return errors::InvalidArgument("depth must be a scalar, but got: ", depth_shape);
  }
  const Tensor* depth_t = c.input_value(1);
  const int64_t depth = depth_t ? *depth_t->data<int32_t>() : Shape::kUnknownDim;
  if (depth_t && depth < 0) return errors::InvalidArgument("depth must be non-negative, got: ", depth);
  const char* names[] = {"on_value", "off_value"};
  for (int i = 0; i < 2; ++i) {
    const Shape& s = c.input_shape(i + 2);
    if (s.known_rank() && s.rank() != 0) return errors::InvalidArgument(names[i], " must be a scalar, but got: ", s);
  }
  if (out.known_rank()) out.insert_dim(axis == -1 ? out_rank - 1 : static_cast<int>(axis), depth);
  GRAPHFN_RETURN_IF_ERROR(check_output_size(out, c.input_dtype(2)));
  c.set_output(0, c.input_dtype(2), std::move(out));
  return Status::OK();
}

}  // namespace

// The shape functions take partial shapes and unknown (non-constant) value inputs, as TF's do.
void register_fill_ops(OpRegistry& reg) {
  reg.op("Fill").input("dims: index_type").input("value: T").output("output: T").attr("T: type")
      .attr("index_type: {int32, int64} = DT_INT32").shape_fn(fill_shape, true).shape_input("dims");
  reg.op("ZerosLike").input("x: T").output("y: T").attr("T: type").shape_fn(shape_fns::unchanged, true);
  reg.op("OnesLike").input("x: T").output("y: T").attr("T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64, complex64, complex128, bool}").shape_fn(shape_fns::unchanged, true);
  reg.op("Eye").input("num_rows: int64").input("num_columns: int64").input("batch_shape: int64")
      .output("output: dtype").attr("dtype: {numbertype, bool} = DT_FLOAT").shape_fn(eye_shape, true);
  reg.op("Range").input("start: Tidx").input("limit: Tidx").input("delta: Tidx").output("output: Tidx")
      .attr("Tidx: {bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, uint64} = DT_INT32").shape_fn(range_shape, true);
  reg.op("OneHot").input("indices: TI").input("depth: int32").input("on_value: T").input("off_value: T")
      .output("output: T").attr("axis: int = -1").attr("T: type").attr("TI: {uint8, int8, int32, int64} = DT_INT64")
      .shape_fn(one_hot_shape, true);
}

}  // namespace graphfn
