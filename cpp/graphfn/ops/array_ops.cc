// Array ops: constants, identity, and ops that re-shape, re-order or join elements without
// arithmetic (Reshape, Transpose, ExpandDims, Squeeze, ConcatV2, Pack, Unpack, Shape, Size, Rank).
#include <algorithm>
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status const_shape(InferenceContext& c) {
  const Tensor* value = c.attrs().get_tensor("value");
  if (!value) return errors::InvalidArgument("Const needs a 'value' attr");
  c.set_output(0, value->dtype(), value->shape());
  return Status::OK();
}

std::string join_dims(const std::vector<int64_t>& dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s;
}

// The requested dims of a Reshape: at most one -1 (`unknown` its index, else -1), the others
// non-negative, with a representable product (of the non-zero dims; `has_zero` says if any is 0).
struct ReshapeRequest {
  std::vector<int64_t> dims;
  int unknown = -1;
  int64_t product = 1;
  bool has_zero = false;
};

Status parse_reshape_request(const Tensor& sizes, ReshapeRequest* r) {
  if (!is_legacy_vector(sizes.shape())) return errors::InvalidArgument("sizes input must be 1-D, not ", sizes.shape());
  GRAPHFN_RETURN_IF_ERROR(int_values(sizes, &r->dims));
  uint64_t product = 1;
  bool overflow = false;
  for (int i = 0; i < static_cast<int>(r->dims.size()); ++i) {
    const int64_t d = r->dims[i];
    if (d == -1) {
      if (r->unknown >= 0) return errors::InvalidArgument("Only one input size may be -1, not both ", r->unknown, " and ", i);
      r->unknown = i;
    } else if (d < 0) {
      return errors::InvalidArgument("Size ", i, " must be non-negative, not ", d);
    } else if (d == 0) {
      r->has_zero = true;
    } else {
      const uint64_t ud = static_cast<uint64_t>(d);
      if (product > static_cast<uint64_t>(INT64_MAX) / ud) overflow = true;
      product *= ud;
    }
  }
  if (overflow) return errors::InvalidArgument("Shape [", join_dims(r->dims), "] has too many elements");
  r->product = static_cast<int64_t>(product);
  return Status::OK();
}

// TF's rules for a fully known input: the -1 takes whatever is left. Zero-sized dims are left
// out of both element counts when inferring it, so an empty tensor can still be reshaped to [0, -1].
Status reshape_known_input(const Shape& in, ReshapeRequest r, DType dt, Shape* out, bool graph) {
  const int64_t n = in.num_elements();
  if (r.unknown >= 0) {
    int64_t counted = 1;  // input elements, without its zero dims when the request has one
    bool input_has_zero = false;
    for (int64_t d : in.dims()) {
      if (d > 0 || !r.has_zero) counted *= d;
      else input_has_zero = true;
    }
    if (!input_has_zero && counted % r.product != 0) {
      return errors::InvalidArgument("Input to reshape is a tensor with ", counted,
                                     " values, but the requested shape requires a multiple of ", r.product);
    }
    r.dims[r.unknown] = counted / r.product;
  }
  *out = Shape(std::move(r.dims));
  GRAPHFN_RETURN_IF_ERROR(check_output_size(*out, dt));
  if (out->num_elements() != n) {
    if (graph) {  // TF's graph-building words
      return errors::InvalidArgument("Cannot reshape a tensor with ", n, " elements to shape ", *out, " (",
                                     out->num_elements(), " elements)");
    }
    return errors::InvalidArgument("Input to reshape is a tensor with ", n, " values, but the requested shape has ",
                                   out->num_elements());
  }
  return Status::OK();
}

// A partially known input (graph building): the -1 stays unknown unless the input is known to be
// empty; without a -1 the known input dims must divide the requested size, as TF checks.
Status reshape_partial_input(const Shape& in, ReshapeRequest r, Shape* out) {
  bool empty = false, known_product_fits = in.known_rank();
  uint64_t known = 1;
  for (int64_t d : in.dims()) {
    if (d == 0) empty = true;
    if (d <= 0) continue;
    if (known > static_cast<uint64_t>(INT64_MAX) / static_cast<uint64_t>(d)) known_product_fits = false;
    known *= static_cast<uint64_t>(d);
  }
  if (r.unknown >= 0) {
    r.dims[r.unknown] = empty && !r.has_zero ? 0 : Shape::kUnknownDim;
  } else {
    const int64_t requested = r.has_zero ? 0 : r.product;
    if (empty && requested != 0) {
      return errors::InvalidArgument("Input to reshape is a tensor with 0 values, but the requested shape has ",
                                     requested);
    }
    if (!empty && known_product_fits && static_cast<uint64_t>(requested) % known != 0) {
      return errors::InvalidArgument("Dimension size must be evenly divisible by ", known, " but is ", requested);
    }
  }
  *out = Shape(std::move(r.dims));
  return Status::OK();
}

// A reshape to a partially known shape (`tf.reshape(x, [tf.shape(y)[0], -1])`): its known
// dims, and a single unknown one inferred when the input's size is known (as TF). Mismatches
// are left to the kernel, which sees the actual values.
Shape reshape_to_partial(const Shape& in, const Shape& target) {
  Shape out = target;
  int unknown = -1, num_unknown = 0;
  int64_t known_product = 1;
  for (int d = 0; d < target.rank(); ++d) {
    if (target.dim(d) < 0) {
      unknown = d;
      ++num_unknown;
    } else if (target.dim(d) > 0 && known_product > INT64_MAX / target.dim(d)) {
      return out;  // no size fits; the kernel reports it
    } else {
      known_product *= target.dim(d);
    }
  }
  if (num_unknown == 1 && in.fully_defined() && known_product > 0 && in.num_elements() % known_product == 0) {
    out.set_dim(unknown, in.num_elements() / known_product);
  }
  return out;
}

Status reshape_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  const Shape& sizes_shape = c.input_shape(1);
  if (sizes_shape.known_rank() && !is_legacy_vector(sizes_shape)) {
    return errors::InvalidArgument("sizes input must be 1-D, not ", sizes_shape);
  }
  Shape out;
  if (const Tensor* sizes = c.input_value(1)) {
    ReshapeRequest r;
    GRAPHFN_RETURN_IF_ERROR(parse_reshape_request(*sizes, &r));
    GRAPHFN_RETURN_IF_ERROR(in.fully_defined() ? reshape_known_input(in, std::move(r), c.input_dtype(0), &out, !c.is_eager())
                                               : reshape_partial_input(in, std::move(r), &out));
  } else if (const Shape* partial = c.input_shape_value(1)) {
    out = reshape_to_partial(in, *partial);
  } else {
    // Only the output rank may be known: the length of the shape vector. A single dim holds all.
    const int64_t rank = static_length(sizes_shape);
    out = rank == 1 && in.fully_defined() ? Shape{in.num_elements()} : unknown_dims(rank);
  }
  GRAPHFN_RETURN_IF_ERROR(check_output_size(out, c.input_dtype(0)));
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

Status transpose_shape(InferenceContext& c) {
  const Shape& x = c.input_shape(0);
  const Shape& perm_shape = c.input_shape(1);
  if (perm_shape.known_rank() && perm_shape.rank() != 1) {
    return errors::InvalidArgument("perm must be rank 1, got shape ", perm_shape);
  }
  const Tensor* perm_t = c.input_value(1);
  std::vector<int64_t> perm;
  if (perm_t) GRAPHFN_RETURN_IF_ERROR(int_values(*perm_t, &perm));
  const int64_t perm_size = perm_t ? static_cast<int64_t>(perm.size()) : static_length(perm_shape);
  const int64_t rank = x.known_rank() ? x.rank() : perm_size;
  if (x.known_rank() && perm_size >= 0 && perm_size != rank) {
    return errors::InvalidArgument("transpose expects a vector of size ", rank, ". But input(1) is a vector of size ",
                                   perm_size);
  }
  if (!perm_t || rank < 0) {
    c.set_output(0, c.input_dtype(0), unknown_dims(rank));
    return Status::OK();
  }
  const int r = static_cast<int>(rank);
  std::vector<bool> seen(r, false);
  std::vector<int64_t> dims(r);
  for (int i = 0; i < r; ++i) {
    const int64_t d = perm[i] < 0 ? perm[i] + r : perm[i];
    if (d < 0 || d >= r) return errors::InvalidArgument(d, " is out of range [0 .. ", r, ")");
    perm[i] = d;
    seen[d] = true;
    dims[i] = x.known_rank() ? x.dim(static_cast<int>(d)) : Shape::kUnknownDim;
  }
  for (int i = 0; i < r; ++i) {
    if (!seen[i]) {
      std::string set;
      for (int j = 0; j < r; ++j) set += (j ? "," : "") + std::to_string(perm[j]);
      return errors::InvalidArgument(i, " is missing from {", set, "}.");
    }
  }
  c.set_output(0, c.input_dtype(0), Shape(std::move(dims)));
  return Status::OK();
}

// An unknown `dim` value leaves even the output rank unknown (as in TF).
Status expand_dims_shape(InferenceContext& c) {
  Shape s = c.input_shape(0);
  const Tensor* dim = c.input_value(1);
  if (dim && dim->num_elements() != 1) return errors::InvalidArgument("'dim' must be a tensor with a single value");
  if (!dim || !s.known_rank()) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  const int64_t d = first_int(*dim);
  const int rank = s.rank();
  if (d < -rank - 1 || d > rank) {
    if (!c.is_eager()) {  // TF's graph-building words
      return errors::InvalidArgument("dim ", d, " not in the interval [", -rank - 1, ", ", rank, "].");
    }
    return errors::InvalidArgument("Tried to expand dim index ", d, " for tensor with ", rank, " dimensions.");
  }
  s.insert_dim(static_cast<int>(d < 0 ? d + rank + 1 : d), 1);
  c.set_output(0, c.input_dtype(0), std::move(s));
  return Status::OK();
}

// Without axes every size-1 dim goes, so an unknown dim leaves the output rank unknown.
Status squeeze_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  if (!s.known_rank()) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  const int rank = s.rank();
  const std::vector<int64_t>* axes = c.attrs().get_int_list("squeeze_dims");
  std::vector<bool> drop(rank, false);
  if (axes && !axes->empty()) {
    for (int64_t a : *axes) {
      if (a < -rank || a >= rank) {
        return errors::InvalidArgument("Tried to squeeze dim index ", a, " for tensor with ", rank, " dimensions.");
      }
      const int d = static_cast<int>(a < 0 ? a + rank : a);
      if (s.dim(d) >= 0 && s.dim(d) != 1) {
        return errors::InvalidArgument("Can not squeeze dim[", d, "], expected a dimension of 1, got ", s.dim(d));
      }
      drop[d] = true;
    }
  } else {
    for (int d = 0; d < rank; ++d) {
      if (s.dim(d) < 0) {
        c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
        return Status::OK();
      }
      drop[d] = s.dim(d) == 1;
    }
  }
  std::vector<int64_t> dims;
  for (int d = 0; d < rank; ++d) {
    if (!drop[d]) dims.push_back(s.dim(d));
  }
  c.set_output(0, c.input_dtype(0), Shape(std::move(dims)));
  return Status::OK();
}

// TF's minimum list lengths (ConcatV2 needs 2 values, Pack 1).
Status check_list_length(int n, int minimum) {
  if (n >= minimum) return Status::OK();
  return errors::InvalidArgument("Value for attr 'N' of ", n, " must be at least minimum ", minimum);
}

// The first of inputs [0, n) whose rank is known, or -1.
int first_known_rank(InferenceContext& c, int n) {
  for (int i = 0; i < n; ++i) {
    if (c.input_shape(i).known_rank()) return i;
  }
  return -1;
}

Status concat_shape(InferenceContext& c) {
  const int n = c.num_inputs() - 1;
  GRAPHFN_RETURN_IF_ERROR(check_list_length(n, 2));
  const Shape& axis_shape = c.input_shape(n);
  if (axis_shape.known_rank() && !is_legacy_scalar(axis_shape)) {
    return errors::InvalidArgument("axis tensor should be a scalar integer, but got shape ", axis_shape);
  }
  for (int i = 0; i < n; ++i) {
    if (c.input_shape(i).known_rank() && c.input_shape(i).rank() == 0) {
      return errors::InvalidArgument("ConcatOp : Can't concatenate scalars (use tf.stack instead)");
    }
  }
  const int ref = first_known_rank(c, n);  // inputs are checked against this one
  if (ref < 0) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  const Shape& first = c.input_shape(ref);
  const int rank = first.rank();
  auto check_rank = [&](int i) -> Status {
    const Shape& s = c.input_shape(i);
    if (!s.known_rank() || s.rank() == rank) return Status::OK();
    return errors::InvalidArgument("ConcatOp : Ranks of all input tensors should match: shape[", ref, "] = ", first,
                                   " vs. shape[", i, "] = ", s);
  };
  const Tensor* axis_t = c.input_value(n);
  if (!axis_t) {  // which dim grows is unknown
    for (int i = ref + 1; i < n; ++i) GRAPHFN_RETURN_IF_ERROR(check_rank(i));
    c.set_output(0, c.input_dtype(0), unknown_dims(rank));
    return Status::OK();
  }
  const int64_t axis = first_int(*axis_t);
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument("ConcatOp : Expected concatenating dimensions in the range [", -rank, ", ",
                                   rank, "), but got ", axis);
  }
  const int a = static_cast<int>(axis < 0 ? axis + rank : axis);
  Shape out = first;
  for (int i = 0; i < n; ++i) {
    const Shape& s = c.input_shape(i);
    if (i == ref) continue;
    GRAPHFN_RETURN_IF_ERROR(check_rank(i));
    if (!s.known_rank()) {
      out.set_dim(a, Shape::kUnknownDim);
      continue;
    }
    for (int d = 0; d < rank; ++d) {
      if (d == a || s.dim(d) < 0) continue;
      if (out.dim(d) >= 0 && s.dim(d) != out.dim(d)) {
        return errors::InvalidArgument("ConcatOp : Dimension ", d, " in both shapes must be equal: shape[", ref,
                                       "] = ", first, " vs. shape[", i, "] = ", s);
      }
      out.set_dim(d, s.dim(d));
    }
    // Empty inputs may have huge dims; keep the sum representable.
    if (out.dim(a) < 0 || s.dim(a) < 0) {
      out.set_dim(a, Shape::kUnknownDim);
    } else if (s.dim(a) > INT64_MAX - out.dim(a)) {
      return errors::InvalidArgument("ConcatOp : output dimension ", a, " overflows");
    } else {
      out.set_dim(a, out.dim(a) + s.dim(a));
    }
  }
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

// Pack and Unpack check `axis` against the rank of the packed tensor.
Status pack_axis(InferenceContext& c, int packed_rank, int* axis) {
  const int64_t a = c.attrs().get_int("axis", 0);
  if (a < -packed_rank || a >= packed_rank) {
    return errors::InvalidArgument("axis = ", a, " not in [", -packed_rank, ", ", packed_rank, ")");
  }
  *axis = static_cast<int>(a < 0 ? a + packed_rank : a);
  return Status::OK();
}

// The values' shapes, merged: each partial shape tells something about the common one.
Status pack_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_list_length(c.num_inputs(), 1));
  Shape common = c.input_shape(0);
  for (int i = 1; i < c.num_inputs(); ++i) {
    if (!merge_shapes(common, c.input_shape(i), &common)) {
      const int ref = first_known_rank(c, i);
      return errors::InvalidArgument("Shapes of all inputs must match: values[", ref, "].shape = ",
                                     c.input_shape(ref), " != values[", i, "].shape = ", c.input_shape(i));
    }
  }
  if (!common.known_rank()) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  int axis;
  GRAPHFN_RETURN_IF_ERROR(pack_axis(c, common.rank() + 1, &axis));
  common.insert_dim(axis, c.num_inputs());
  c.set_output(0, c.input_dtype(0), std::move(common));
  return Status::OK();
}

Status unpack_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  Shape piece = Shape::unknown_rank();
  int64_t num = c.attrs().get_int("num", -1);
  if (s.known_rank()) {
    int axis;
    GRAPHFN_RETURN_IF_ERROR(pack_axis(c, s.rank(), &axis));
    if (num < 0) num = s.dim(axis);
    if (s.dim(axis) >= 0 && num != s.dim(axis)) {
      return errors::InvalidArgument("Input shape axis ", axis, " must equal ", num, ", got shape ", s);
    }
    piece = s;
    piece.remove_dim(axis);
  }
  if (num < 0) return errors::InvalidArgument("Unpack needs the 'num' attr when the unpacked dim is unknown");
  for (int64_t i = 0; i < num; ++i) c.set_output(static_cast<int>(i), c.input_dtype(0), piece);
  return Status::OK();
}

Status shape_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  const DType out = c.type_attr("out_type");
  if (out == DType::kInt32) {
    for (int d = 0; d < s.rank(); ++d) {
      if (s.dim(d) > INT32_MAX) {
        return errors::InvalidArgument("Shape output type is 32-bit  but dim ", d, " is ", s.dim(d));
      }
    }
  }
  c.set_output(0, out, Shape{s.known_rank() ? s.rank() : Shape::kUnknownDim});
  return Status::OK();
}

Status size_shape(InferenceContext& c) {
  const DType out = c.type_attr("out_type");
  if (out == DType::kInt32 && c.input_shape(0).num_elements() > INT32_MAX) {
    return errors::InvalidArgument("Number of elements was larger than representable by 32-bit output type");
  }
  c.set_output(0, out, Shape());
  return Status::OK();
}

Status rank_shape(InferenceContext& c) {
  c.set_output(0, DType::kInt32, Shape());
  return Status::OK();
}

}  // namespace

// Every shape function here takes partial shapes and unknown (non-constant) value inputs, as
// TF's do: graph building gets whatever static shape can be inferred.
void register_array_ops(OpRegistry& reg) {
  reg.op("Const").output("output: dtype").attr("value: tensor").attr("dtype: type").shape_fn(const_shape, true);
  reg.op("Identity").input("input: T").output("output: T").attr("T: type").shape_fn(shape_fns::unchanged, true);
  reg.op("Reshape").input("tensor: T").input("shape: Tshape").output("output: T").attr("T: type")
      .attr("Tshape: {int32, int64} = DT_INT32").shape_fn(reshape_shape, true).shape_input("shape");
  reg.op("Transpose").input("x: T").input("perm: Tperm").output("y: T").attr("T: type")
      .attr("Tperm: {int32, int64} = DT_INT32").shape_fn(transpose_shape, true);
  reg.op("ExpandDims").input("input: T").input("dim: Tdim").output("output: T").attr("T: type")
      .attr("Tdim: {int32, int64} = DT_INT32").shape_fn(expand_dims_shape, true);
  reg.op("Squeeze").input("input: T").output("output: T").attr("T: type")
      .attr("squeeze_dims: list(int) = []").shape_fn(squeeze_shape, true);
  reg.op("ConcatV2").input("values: N * T").input("axis: Tidx").output("output: T").attr("N: int >= 2").attr("T: type")
      .attr("Tidx: {int32, int64} = DT_INT32").shape_fn(concat_shape, true);
  reg.op("Pack").input("values: N * T").output("output: T").attr("N: int >= 1").attr("T: type").attr("axis: int = 0")
      .shape_fn(pack_shape, true);
  reg.op("Unpack").input("value: T").output("output: num * T").attr("num: int >= 0").attr("T: type")
      .attr("axis: int = 0").shape_fn(unpack_shape, true);
  reg.op("Shape").input("input: T").output("output: out_type").attr("T: type")
      .attr("out_type: {int32, int64} = DT_INT32").kernel_type_attr("out_type").shape_fn(shape_shape, true);
  reg.op("Size").input("input: T").output("output: out_type").attr("T: type")
      .attr("out_type: {int32, int64} = DT_INT32").kernel_type_attr("out_type").shape_fn(size_shape, true);
  reg.op("Rank").input("input: T").output("output: int32").attr("T: type").shape_fn(rank_shape, true);
}

}  // namespace graphfn
