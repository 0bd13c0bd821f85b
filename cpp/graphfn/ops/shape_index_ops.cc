// Ops that rearrange a tensor by a per-dimension rule: Tile, Split/SplitV, Pad/PadV2/MirrorPad
// (and MirrorPadGrad), ReverseV2, Roll; and small shape utilities: EnsureShape, IdentityN, ShapeN,
// UnravelIndex, BroadcastArgs. Shape functions take partial shapes and unknown value inputs.
#include <set>
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/shape_index_checks.h"

namespace graphfn {
namespace {

Status tile_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  const Shape& m = c.input_shape(1);
  if (m.known_rank() && m.rank() != 1) {
    return errors::InvalidArgument("Expected multiples to be 1-D, but got shape ", m);
  }
  const int64_t length = static_length(m);
  if (in.known_rank() && length >= 0 && length != in.rank()) {
    return errors::InvalidArgument("Expected multiples argument to be a vector of length ", in.rank(),
                                   " but got length ", length);
  }
  const int64_t rank = in.known_rank() ? in.rank() : length;
  const Tensor* mt = c.input_value(1);
  if (!mt || rank < 0) {
    c.set_output(0, c.input_dtype(0), unknown_dims(rank));
    return Status::OK();
  }
  std::vector<int64_t> mult;
  GRAPHFN_RETURN_IF_ERROR(int_values(*mt, &mult));
  std::vector<int64_t> dims(rank);
  for (int d = 0; d < rank; ++d) {
    if (mult[d] < 0) return errors::InvalidArgument("Expected multiples[", d, "] >= 0, but got ", mult[d]);
    const int64_t dim = in.known_rank() ? in.dim(d) : Shape::kUnknownDim;
    if (dim < 0) {
      dims[d] = mult[d] == 0 ? 0 : Shape::kUnknownDim;
    } else if (dim != 0 && mult[d] > INT64_MAX / dim) {
      return errors::InvalidArgument("Shape would have more than 2**63 - 1 elements");
    } else {
      dims[d] = dim * mult[d];
    }
  }
  Shape out(std::move(dims));
  GRAPHFN_RETURN_IF_ERROR(check_output_size(out, c.input_dtype(0)));
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

Status split_shape(InferenceContext& c) {
  const int64_t n = c.attrs().get_int("num_split", 1);
  const Shape& axis_shape = c.input_shape(0);
  if (axis_shape.known_rank() && axis_shape.rank() != 0) {
    return errors::InvalidArgument("split_dim must be a scalar but has rank ", axis_shape.rank());
  }
  const Shape& in = c.input_shape(1);
  const Tensor* axis_t = c.input_value(0);
  Shape piece = in.known_rank() ? unknown_dims(in.rank()) : Shape::unknown_rank();
  if (axis_t && in.known_rank()) {
    int axis;
    GRAPHFN_RETURN_IF_ERROR(split_axis(first_int(*axis_t), in.rank(), &axis));
    piece = in;
    const int64_t size = in.dim(axis);
    if (size >= 0) {
      if (size % n != 0) {
        return errors::InvalidArgument("Number of ways to split should evenly divide the split dimension, but got "
                                       "split_dim ", axis, " (size = ", size, ") and num_split ", n);
      }
      piece.set_dim(axis, size / n);
    }
  }
  for (int i = 0; i < n; ++i) c.set_output(i, c.input_dtype(1), piece);
  return Status::OK();
}

Status split_v_shape(InferenceContext& c) {
  const int64_t n = c.attrs().get_int("num_split", 1);
  const Shape& in = c.input_shape(0);
  const Shape& sizes_shape = c.input_shape(1);
  const int64_t length = static_length(sizes_shape);
  if (sizes_shape.known_rank() && sizes_shape.rank() != 1) {
    return errors::InvalidArgument("size_splits must be a 1-D tensor, got shape ", sizes_shape);
  }
  if (length >= 0 && length != n) {
    return errors::InvalidArgument("Length of size_splits should be equal to num_outputs, but got ", length,
                                   " and ", n);
  }
  const Tensor* axis_t = c.input_value(2);
  const Tensor* sizes_t = c.input_value(1);
  if (!axis_t || !in.known_rank()) {
    for (int i = 0; i < n; ++i) c.set_output(i, c.input_dtype(0), in.known_rank() ? unknown_dims(in.rank()) : in);
    return Status::OK();
  }
  int axis;
  GRAPHFN_RETURN_IF_ERROR(split_axis(first_int(*axis_t), in.rank(), &axis));
  if (!sizes_t) {
    Shape piece = in;
    piece.set_dim(axis, Shape::kUnknownDim);
    for (int i = 0; i < n; ++i) c.set_output(i, c.input_dtype(0), piece);
    return Status::OK();
  }
  std::vector<int64_t> sizes;
  GRAPHFN_RETURN_IF_ERROR(int_values(*sizes_t, &sizes));
  int unknown = -1;
  int64_t known_sum = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (unknown >= 0) return errors::InvalidArgument("There can only be one -1 in the input.");
      unknown = static_cast<int>(i);
    } else if (sizes[i] < 0) {
      return errors::InvalidArgument("Split size at index ", i, " must be >= 0. Got: ", sizes[i]);
    } else {
      if (sizes[i] > INT64_MAX - known_sum) return errors::InvalidArgument("Split sizes overflow");
      known_sum += sizes[i];
    }
  }
  const int64_t size = in.dim(axis);
  if (n == 1 && size >= 0 && sizes[0] != size) {
    return errors::InvalidArgument("If there is only one output, it must have the same size as the input. Input size: ",
                                   size, " output size: ", sizes[0]);
  }
  if (size >= 0) {
    if ((unknown < 0 && known_sum != size) || (unknown >= 0 && known_sum > size)) {
      return errors::InvalidArgument("Determined shape must either match input shape along split_dim exactly if "
                                     "fully specified, or be less than the size of the input along split_dim if "
                                     "not fully specified.  Got: ", known_sum);
    }
    if (unknown >= 0) sizes[unknown] = size - known_sum;
  }
  for (int i = 0; i < n; ++i) {
    Shape piece = in;
    piece.set_dim(axis, sizes[i]);
    c.set_output(i, c.input_dtype(0), piece);
  }
  return Status::OK();
}

// Pad, PadV2 and MirrorPad (the mode attr says which checks apply); MirrorPadGrad shrinks.
Status pad_shape_impl(InferenceContext& c, bool shrink) {
  const std::string* mode = c.attrs().get_string("mode");
  if (mode && *mode != "REFLECT" && *mode != "SYMMETRIC") {
    return errors::InvalidArgument("Value for attr 'mode' of \"", *mode,
                                   "\" is not in the list of allowed values: \"REFLECT\", \"SYMMETRIC\"");
  }
  const Shape& in = c.input_shape(0);
  const Shape& p = c.input_shape(1);
  if (c.num_inputs() == 3) {
    const Shape& cv = c.input_shape(2);
    if (cv.known_rank() && cv.rank() != 0) {
      return errors::InvalidArgument("constant_values must be a scalar. Found: ", cv);
    }
  }
  const bool p_ok = !p.known_rank() || (p.rank() == 2 && (p.dim(1) < 0 || p.dim(1) == 2));
  const int64_t rows = p.known_rank() && p.rank() >= 1 ? p.dim(0) : -1;
  if (!p_ok || (in.known_rank() && rows >= 0 && rows != in.rank())) {
    if (!p.known_rank() || p.rank() != 2 || p.dim(1) != 2 || !in.known_rank()) {
      return errors::InvalidArgument("paddings must be a matrix with 2 columns: ", p);
    }
    return errors::InvalidArgument("The first dimension of paddings must be the rank of inputs", p,
                                   c.attrs().get_string("mode") ? ", " : " ", in);
  }
  const int64_t rank = in.known_rank() ? in.rank() : rows;
  const Tensor* pt = c.input_value(1);
  if (!pt || rank < 0) {
    c.set_output(0, c.input_dtype(0), unknown_dims(rank));
    return Status::OK();
  }
  std::vector<int64_t> pads;
  GRAPHFN_RETURN_IF_ERROR(int_values(*pt, &pads));
  std::vector<int64_t> dims(rank);
  for (int d = 0; d < rank; ++d) {
    const int64_t before = pads[2 * d], after = pads[2 * d + 1];
    if (before < 0 || after < 0) {
      return errors::InvalidArgument(mode ? "paddings" : "Paddings", " must be non-negative: ", before, " ", after);
    }
    const int64_t dim = in.known_rank() ? in.dim(d) : Shape::kUnknownDim;
    if (dim < 0) {
      dims[d] = Shape::kUnknownDim;
      continue;
    }
    if (mode && !shrink) {
      const bool reflect = *mode == "REFLECT";
      if (reflect && (before >= dim || after >= dim)) {
        return errors::InvalidArgument("paddings must be less than the dimension size: ", before, ", ", after,
                                       " not less than ", dim);
      }
      if (!reflect && (before > dim || after > dim)) {
        return errors::InvalidArgument("paddings must be no greater than the dimension size: ", before, ", ",
                                       after, " greater than ", dim);
      }
    }
    if (shrink) {
      const bool reflect = mode && *mode == "REFLECT";
      const int64_t edge = std::max(before, after);
      if (before > dim || after > dim - before || (reflect ? edge >= dim - before - after : edge > dim - before - after)) {
        return errors::InvalidArgument("Paddings ", before, ", ", after, " are too large for the gradient's dim ", dim);
      }
      dims[d] = dim - before - after;
    } else {
      if (before > INT64_MAX - dim || after > INT64_MAX - dim - before) {
        return errors::InvalidArgument("Shape would have more than 2**63 - 1 elements");
      }
      dims[d] = dim + before + after;
    }
  }
  Shape out(std::move(dims));
  GRAPHFN_RETURN_IF_ERROR(check_output_size(out, c.input_dtype(0)));
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

Status pad_shape(InferenceContext& c) { return pad_shape_impl(c, false); }
Status mirror_pad_grad_shape(InferenceContext& c) { return pad_shape_impl(c, true); }

Status reverse_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  const Shape& axis_shape = c.input_shape(1);
  if (axis_shape.known_rank() && axis_shape.rank() != 1) {
    return errors::InvalidArgument("'dims' must be 1-dimension, not ", axis_shape.rank());
  }
  const Tensor* axis_t = c.input_value(1);
  const bool empty = in.known_rank() && in.fully_defined() && in.num_elements() == 0;
  if (axis_t && in.known_rank() && !empty) {  // TF checks no axes of an empty tensor
    std::vector<int64_t> axes;
    GRAPHFN_RETURN_IF_ERROR(int_values(*axis_t, &axes));
    GRAPHFN_RETURN_IF_ERROR(check_reverse_axes(in.rank(), axes));
  }
  c.set_output(0, c.input_dtype(0), in);
  return Status::OK();
}

Status roll_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  const Shape& shift = c.input_shape(1);
  const Shape& axis = c.input_shape(2);
  if (in.known_rank() && in.rank() < 1) return errors::InvalidArgument("input must be 1-D or higher");
  if (shift.known_rank() && shift.rank() > 1) {
    return errors::InvalidArgument("shift must be a scalar or a 1-D vector. Found: ", shift);
  }
  if (axis.known_rank() && axis.rank() > 1) {
    return errors::InvalidArgument("axis must be a scalar or a 1-D vector. Found: ", axis);
  }
  const Tensor* shift_t = c.input_value(1);
  const Tensor* axis_t = c.input_value(2);
  if (shift_t && axis_t && in.known_rank()) {
    std::vector<int64_t> axes;
    GRAPHFN_RETURN_IF_ERROR(int_values(*axis_t, &axes));
    GRAPHFN_RETURN_IF_ERROR(check_roll_args(in.rank(), shift_t->num_elements(), axes));
  } else if (shift_t && axis_t && shift_t->num_elements() != axis_t->num_elements()) {
    return errors::InvalidArgument("shift and axis must have the same size");
  }
  c.set_output(0, c.input_dtype(0), in);
  return Status::OK();
}

// Dims compatible: equal ranks, and each known dim of `expected` equal to the actual one.
bool shape_compatible(const Shape& actual, const Shape& expected) {
  if (!actual.known_rank() || !expected.known_rank()) return true;
  if (actual.rank() != expected.rank()) return false;
  for (int d = 0; d < actual.rank(); ++d) {
    if (actual.dim(d) >= 0 && expected.dim(d) >= 0 && actual.dim(d) != expected.dim(d)) return false;
  }
  return true;
}

Status ensure_shape_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  const AttrValue* v = c.attrs().find("shape");
  const Shape* expected = v ? std::get_if<Shape>(v) : nullptr;
  if (!expected) {
    c.set_output(0, c.input_dtype(0), in);
    return Status::OK();
  }
  if (!shape_compatible(in, *expected)) {
    if (c.is_eager()) {
      return errors::InvalidArgument("Shape of tensor input ", in, " is not compatible with expected shape ",
                                     *expected, ".");
    }
    if (in.rank() != expected->rank()) {
      return errors::InvalidArgument("Shapes must be equal rank, but are ", expected->rank(), " and ", in.rank());
    }
    for (int d = 0; d < in.rank(); ++d) {
      if (in.dim(d) >= 0 && expected->dim(d) >= 0 && in.dim(d) != expected->dim(d)) {
        return errors::InvalidArgument("Dimension ", d, " in both shapes must be equal, but are ", expected->dim(d),
                                       " and ", in.dim(d), ". Shapes are ", *expected, " and ", in, ".");
      }
    }
  }
  Shape out;
  merge_shapes(in, *expected, &out);
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

Status identity_n_shape(InferenceContext& c) {
  for (int i = 0; i < c.num_inputs(); ++i) c.set_output(i, c.input_dtype(i), c.input_shape(i));
  return Status::OK();
}

Status shape_n_shape(InferenceContext& c) {
  const DType out = c.type_attr("out_type");
  for (int i = 0; i < c.num_inputs(); ++i) {
    const Shape& s = c.input_shape(i);
    c.set_output(i, out, Shape{s.known_rank() ? s.rank() : Shape::kUnknownDim});
  }
  return Status::OK();
}

Status unravel_index_shape(InferenceContext& c) {
  const Shape& indices = c.input_shape(0);
  const Shape& dims = c.input_shape(1);
  if (dims.known_rank() && dims.rank() != 1) {
    return errors::InvalidArgument("dims must be a 1-D tensor, got shape ", dims);
  }
  if (indices.known_rank() && indices.rank() > 1) {
    return errors::InvalidArgument("The indices can only be scalar or vector, got \"", indices, "\"");
  }
  const int64_t n = static_length(dims);
  if (indices.known_rank() && indices.rank() == 0) {
    c.set_output(0, c.input_dtype(0), Shape{n});
  } else {
    c.set_output(0, c.input_dtype(0), Shape{n, indices.known_rank() ? indices.dim(0) : Shape::kUnknownDim});
  }
  return Status::OK();
}

}  // namespace

Status split_axis(int64_t split_dim, int rank, int* axis) {
  if (split_dim < -rank || split_dim >= rank) {
    return errors::InvalidArgument("-input rank(-", rank, ") <= split_dim < input rank (", rank, "), but got ",
                                   split_dim);
  }
  *axis = static_cast<int>(split_dim < 0 ? split_dim + rank : split_dim);
  return Status::OK();
}

Status check_roll_args(int rank, int64_t num_shifts, const std::vector<int64_t>& axes) {
  if (rank < 1) return errors::InvalidArgument("input must be 1-D or higher");
  if (num_shifts != static_cast<int64_t>(axes.size())) {
    return errors::InvalidArgument("shift and axis must have the same size");
  }
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) return errors::InvalidArgument("axis ", a, " is out of range");
  }
  return Status::OK();
}

Status check_reverse_axes(int rank, const std::vector<int64_t>& axes) {
  if (rank == 0) return Status::OK();  // a scalar is its own reverse, whatever the axes (TF)
  std::set<int64_t> seen;
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < -rank || axes[i] >= rank) {
      return errors::InvalidArgument("'axis'[", i, "] = ", axes[i], " is out of valid range [0, ", rank - 1);
    }
    const int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (!seen.insert(a).second) return errors::InvalidArgument("axis ", a, " specified more than once.");
  }
  return Status::OK();
}

Status broadcast_dim_values(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                            std::vector<int64_t>* out) {
  const size_t n = std::max(a.size(), b.size());
  out->assign(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1) {
      auto text = [](const std::vector<int64_t>& v) {
        std::string t = "[";
        for (size_t k = 0; k < v.size(); ++k) t += (k ? "," : "") + (v[k] < 0 ? std::string("?") : std::to_string(v[k]));
        return t + "]";
      };
      return errors::InvalidArgument("Incompatible shapes: ", text(a), " vs. ", text(b));
    }
    (*out)[i] = x == 1 ? y : x;
  }
  return Status::OK();
}

namespace {

Status broadcast_args_shape(InferenceContext& c) {
  const Shape& a = c.input_shape(0);
  const Shape& b = c.input_shape(1);
  for (const Shape* s : {&a, &b}) {
    if (s->known_rank() && s->rank() != 1) return errors::InvalidArgument("Shape must be rank 1 but is rank ", s->rank());
  }
  const Tensor* at = c.input_value(0);
  const Tensor* bt = c.input_value(1);
  if (at && bt) {
    std::vector<int64_t> av, bv, out;
    GRAPHFN_RETURN_IF_ERROR(int_values(*at, &av));
    GRAPHFN_RETURN_IF_ERROR(int_values(*bt, &bv));
    GRAPHFN_RETURN_IF_ERROR(broadcast_dim_values(av, bv, &out));
    c.set_output(0, c.input_dtype(0), Shape{static_cast<int64_t>(out.size())});
    return Status::OK();
  }
  const int64_t la = static_length(a), lb = static_length(b);
  c.set_output(0, c.input_dtype(0), Shape{la >= 0 && lb >= 0 ? std::max(la, lb) : Shape::kUnknownDim});
  return Status::OK();
}

}  // namespace

void register_shape_index_ops(OpRegistry& reg) {
  reg.op("Tile").input("input: T").input("multiples: Tmultiples").output("output: T").attr("T: type")
      .attr("Tmultiples: {int32, int64} = DT_INT32").shape_fn(tile_shape, true);
  reg.op("Split").input("split_dim: int32").input("value: T").output("output: num_split * T")
      .attr("num_split: int >= 1").attr("T: type").shape_fn(split_shape, true);
  reg.op("SplitV").input("value: T").input("size_splits: Tlen").input("split_dim: int32")
      .output("output: num_split * T").attr("num_split: int >= 1").attr("T: type")
      .attr("Tlen: {int8, int32, int64} = DT_INT64").shape_fn(split_v_shape, true);
  reg.op("Pad").input("input: T").input("paddings: Tpaddings").output("output: T").attr("T: type")
      .attr("Tpaddings: {int32, int64} = DT_INT32").shape_fn(pad_shape, true);
  reg.op("PadV2").input("input: T").input("paddings: Tpaddings").input("constant_values: T").output("output: T")
      .attr("T: type").attr("Tpaddings: {int32, int64} = DT_INT32").shape_fn(pad_shape, true);
  reg.op("MirrorPad").input("input: T").input("paddings: Tpaddings").output("output: T").attr("T: type")
      .attr("Tpaddings: {int32, int64} = DT_INT32").attr("mode: string")
      .shape_fn(pad_shape, true);
  reg.op("MirrorPadGrad").input("input: T").input("paddings: Tpaddings").output("output: T").attr("T: type")
      .attr("Tpaddings: {int32, int64} = DT_INT32").attr("mode: string")
      .shape_fn(mirror_pad_grad_shape, true);
  reg.op("ReverseV2").input("tensor: T").input("axis: Tidx").output("output: T")
      .attr("Tidx: {int32, int64} = DT_INT32")
      .attr("T: {uint8, int8, uint16, int16, int32, uint32, int64, uint64, bool, bfloat16, half, float, double, "
            "complex64, complex128, string}")
      .kernel_type_attr("T").shape_fn(reverse_shape, true);
  reg.op("Roll").input("input: T").input("shift: Tshift").input("axis: Taxis").output("output: T").attr("T: type")
      .attr("Tshift: {int32, int64}").attr("Taxis: {int32, int64}").shape_fn(roll_shape, true);
  reg.op("EnsureShape").input("input: T").output("output: T").attr("shape: shape").attr("T: type")
      .shape_fn(ensure_shape_shape, true);
  reg.op("IdentityN").input("input: T").output("output: T").attr("T: list(type) >= 1")
      .shape_fn(identity_n_shape, true);
  reg.op("ShapeN").input("input: N * T").output("output: N * out_type").attr("N: int >= 1").attr("T: type")
      .attr("out_type: {int32, int64} = DT_INT32").kernel_type_attr("out_type").shape_fn(shape_n_shape, true);
  reg.op("UnravelIndex").input("indices: Tidx").input("dims: Tidx").output("output: Tidx")
      .attr("Tidx: {int32, int64} = DT_INT32").shape_fn(unravel_index_shape, true);
  reg.op("BroadcastArgs").input("s0: T").input("s1: T").output("r0: T").attr("T: {int32, int64} = DT_INT32")
      .shape_fn(broadcast_args_shape, true);
}

}  // namespace graphfn
