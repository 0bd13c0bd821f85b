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

// TF's rules: at most one -1, which takes whatever is left. Zero-sized dims are left out of both
// element counts when inferring it, so an empty tensor can still be reshaped to [0, -1].
Status reshape_shape(InferenceContext& c) {
  const Tensor& sizes = *c.input_value(1);
  if (!is_legacy_vector(sizes.shape())) return errors::InvalidArgument("sizes input must be 1-D, not ", sizes.shape());
  std::vector<int64_t> dims;
  GRAPHFN_RETURN_IF_ERROR(int_values(sizes, &dims));
  int unknown = -1;
  uint64_t product = 1;  // of the known, non-zero sizes
  bool overflow = false, has_zero = false;
  for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
    if (dims[i] == -1) {
      if (unknown >= 0) return errors::InvalidArgument("Only one input size may be -1, not both ", unknown, " and ", i);
      unknown = i;
    } else if (dims[i] < 0) {
      return errors::InvalidArgument("Size ", i, " must be non-negative, not ", dims[i]);
    } else if (dims[i] == 0) {
      has_zero = true;
    } else {
      const uint64_t d = static_cast<uint64_t>(dims[i]);
      if (product > static_cast<uint64_t>(INT64_MAX) / d) overflow = true;
      product *= d;
    }
  }
  if (overflow) return errors::InvalidArgument("Shape [", join_dims(dims), "] has too many elements");
  const Shape& in = c.input_shape(0);
  const int64_t n = in.num_elements();
  if (unknown >= 0) {
    int64_t counted = 1;  // input elements, without its zero dims when the request has one
    bool input_has_zero = false;
    for (int64_t d : in.dims()) {
      if (d > 0 || !has_zero) counted *= d;
      else input_has_zero = true;
    }
    const int64_t p = static_cast<int64_t>(product);
    if (!input_has_zero && counted % p != 0) {
      return errors::InvalidArgument("Input to reshape is a tensor with ", counted,
                                     " values, but the requested shape requires a multiple of ", p);
    }
    dims[unknown] = counted / p;
  }
  Shape out(std::move(dims));
  GRAPHFN_RETURN_IF_ERROR(check_output_size(out, c.input_dtype(0)));
  if (out.num_elements() != n) {
    return errors::InvalidArgument("Input to reshape is a tensor with ", n, " values, but the requested shape has ",
                                   out.num_elements());
  }
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

Status transpose_shape(InferenceContext& c) {
  const Shape& x = c.input_shape(0);
  const Tensor& perm_t = *c.input_value(1);
  if (perm_t.rank() != 1) return errors::InvalidArgument("perm must be rank 1, got shape ", perm_t.shape());
  std::vector<int64_t> perm;
  GRAPHFN_RETURN_IF_ERROR(int_values(perm_t, &perm));
  const int rank = x.rank();
  if (static_cast<int64_t>(perm.size()) != rank) {
    return errors::InvalidArgument("transpose expects a vector of size ", rank,
                                   ". But input(1) is a vector of size ", static_cast<int64_t>(perm.size()));
  }
  std::vector<bool> seen(rank, false);
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    const int64_t d = perm[i] < 0 ? perm[i] + rank : perm[i];
    if (d < 0 || d >= rank) return errors::InvalidArgument(d, " is out of range [0 .. ", rank, ")");
    perm[i] = d;
    seen[d] = true;
    dims[i] = x.dim(static_cast<int>(d));
  }
  for (int i = 0; i < rank; ++i) {
    if (!seen[i]) {
      std::string set;
      for (int j = 0; j < rank; ++j) set += (j ? "," : "") + std::to_string(perm[j]);
      return errors::InvalidArgument(i, " is missing from {", set, "}.");
    }
  }
  c.set_output(0, c.input_dtype(0), Shape(std::move(dims)));
  return Status::OK();
}

Status expand_dims_shape(InferenceContext& c) {
  Shape s = c.input_shape(0);
  const Tensor& dim = *c.input_value(1);
  if (dim.num_elements() != 1) return errors::InvalidArgument("'dim' must be a tensor with a single value");
  const int64_t d = first_int(dim);
  const int rank = s.rank();
  if (d < -rank - 1 || d > rank) {
    return errors::InvalidArgument("Tried to expand dim index ", d, " for tensor with ", rank, " dimensions.");
  }
  s.insert_dim(static_cast<int>(d < 0 ? d + rank + 1 : d), 1);
  c.set_output(0, c.input_dtype(0), std::move(s));
  return Status::OK();
}

Status squeeze_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  const int rank = s.rank();
  const std::vector<int64_t>* axes = c.attrs().get_int_list("squeeze_dims");
  std::vector<bool> drop(rank, false);
  if (axes && !axes->empty()) {
    for (int64_t a : *axes) {
      if (a < -rank || a >= rank) {
        return errors::InvalidArgument("Tried to squeeze dim index ", a, " for tensor with ", rank, " dimensions.");
      }
      const int d = static_cast<int>(a < 0 ? a + rank : a);
      if (s.dim(d) != 1) {
        return errors::InvalidArgument("Can not squeeze dim[", d, "], expected a dimension of 1, got ", s.dim(d));
      }
      drop[d] = true;
    }
  } else {
    for (int d = 0; d < rank; ++d) drop[d] = s.dim(d) == 1;
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

Status concat_shape(InferenceContext& c) {
  const int n = c.num_inputs() - 1;
  GRAPHFN_RETURN_IF_ERROR(check_list_length(n, 2));
  const Tensor& axis_t = *c.input_value(n);
  if (!is_legacy_scalar(axis_t.shape())) {
    return errors::InvalidArgument("axis tensor should be a scalar integer, but got shape ", axis_t.shape());
  }
  for (int i = 0; i < n; ++i) {
    if (c.input_shape(i).rank() == 0) {
      return errors::InvalidArgument("ConcatOp : Can't concatenate scalars (use tf.stack instead)");
    }
  }
  const Shape& first = c.input_shape(0);
  const int rank = first.rank();
  const int64_t axis = first_int(axis_t);
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument("ConcatOp : Expected concatenating dimensions in the range [", -rank, ", ",
                                   rank, "), but got ", axis);
  }
  const int a = static_cast<int>(axis < 0 ? axis + rank : axis);
  Shape out = first;
  for (int i = 1; i < n; ++i) {
    const Shape& s = c.input_shape(i);
    if (s.rank() != rank) {
      return errors::InvalidArgument("ConcatOp : Ranks of all input tensors should match: shape[0] = ", first,
                                     " vs. shape[", i, "] = ", s);
    }
    for (int d = 0; d < rank; ++d) {
      if (d != a && s.dim(d) != first.dim(d)) {
        return errors::InvalidArgument("ConcatOp : Dimension ", d, " in both shapes must be equal: shape[0] = ",
                                       first, " vs. shape[", i, "] = ", s);
      }
    }
    // Empty inputs may have huge dims; keep the sum representable.
    if (s.dim(a) > INT64_MAX - out.dim(a)) return errors::InvalidArgument("ConcatOp : output dimension ", a, " overflows");
    out.set_dim(a, out.dim(a) + s.dim(a));
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

Status pack_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_list_length(c.num_inputs(), 1));
  const Shape& first = c.input_shape(0);
  int axis;
  GRAPHFN_RETURN_IF_ERROR(pack_axis(c, first.rank() + 1, &axis));
  for (int i = 1; i < c.num_inputs(); ++i) {
    if (c.input_shape(i) != first) {
      return errors::InvalidArgument("Shapes of all inputs must match: values[0].shape = ", first, " != values[", i,
                                     "].shape = ", c.input_shape(i));
    }
  }
  Shape out = first;
  out.insert_dim(axis, c.num_inputs());
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

Status unpack_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  int axis;
  GRAPHFN_RETURN_IF_ERROR(pack_axis(c, s.rank(), &axis));
  const int64_t num = c.attrs().get_int("num", s.dim(axis));
  if (num != s.dim(axis)) {
    return errors::InvalidArgument("Input shape axis ", axis, " must equal ", num, ", got shape ", s);
  }
  Shape piece = s;
  piece.remove_dim(axis);
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
  c.set_output(0, out, Shape{s.rank()});
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

void register_array_ops(OpRegistry& reg) {
  reg.op("Const").output("output: dtype").attr("value: tensor").attr("dtype: type").shape_fn(const_shape, true);
  reg.op("Identity").input("input: T").output("output: T").attr("T: type").shape_fn(shape_fns::unchanged, true);
  reg.op("Reshape").input("tensor: T").input("shape: Tshape").output("output: T").attr("T: type")
      .attr("Tshape: {int32, int64} = DT_INT32").needs_value("shape").shape_fn(reshape_shape);
  reg.op("Transpose").input("x: T").input("perm: Tperm").output("y: T").attr("T: type")
      .attr("Tperm: {int32, int64} = DT_INT32").needs_value("perm").shape_fn(transpose_shape);
  reg.op("ExpandDims").input("input: T").input("dim: Tdim").output("output: T").attr("T: type")
      .attr("Tdim: {int32, int64} = DT_INT32").needs_value("dim").shape_fn(expand_dims_shape);
  reg.op("Squeeze").input("input: T").output("output: T").attr("T: type")
      .attr("squeeze_dims: list(int) = []").shape_fn(squeeze_shape);
  reg.op("ConcatV2").input("values: N * T").input("axis: Tidx").output("output: T").attr("T: type")
      .attr("Tidx: {int32, int64} = DT_INT32").needs_value("axis").shape_fn(concat_shape);
  reg.op("Pack").input("values: N * T").output("output: T").attr("T: type").attr("axis: int = 0")
      .shape_fn(pack_shape);
  reg.op("Unpack").input("value: T").output("output: num * T").attr("num: int").attr("T: type")
      .attr("axis: int = 0").shape_fn(unpack_shape);
  reg.op("Shape").input("input: T").output("output: out_type").attr("T: type")
      .attr("out_type: {int32, int64} = DT_INT32").kernel_type_attr("out_type").shape_fn(shape_shape);
  reg.op("Size").input("input: T").output("output: out_type").attr("T: type")
      .attr("out_type: {int32, int64} = DT_INT32").kernel_type_attr("out_type").shape_fn(size_shape);
  reg.op("Rank").input("input: T").output("output: int32").attr("T: type").shape_fn(rank_shape);
}

}  // namespace graphfn
