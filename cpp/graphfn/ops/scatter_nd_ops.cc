// N-dimensional indexing: GatherNd, ScatterNd, TensorScatterUpdate/Add/Sub/Min/Max, the variable
// scatters (ResourceScatter{Update,Add,Sub,Mul,Div,Min,Max}, ResourceScatterNd{Update,Add,Sub,
// Min,Max}) and sliced assignment (ResourceStridedSliceAssign). An index row of length k
// addresses a slice of the indexed tensor's trailing rank - k dims.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/scatter_nd_shapes.h"

namespace graphfn {

Status check_scatter_nd_update_shape(const Shape& indices, const Shape& updates, const Shape& out) {
  const int64_t depth = indices.rank() > 1 ? indices.dim(indices.rank() - 1) : 1;
  const int batch = indices.rank() > 1 ? indices.rank() - 1 : 1;
  auto prefix_error = [&] {
    return errors::InvalidArgument("Dimensions [0,", batch, ") of indices[shape=", indices,
                                   "] must match dimensions [0,", batch, ") of updates[shape=", updates, "]");
  };
  auto suffix_error = [&] {
    return errors::InvalidArgument("Dimensions [", depth, ",", out.rank(), ") of input[shape=", out,
                                   "] must match dimensions [", batch, ",", updates.rank(), ") of updates[shape=",
                                   updates, "]");
  };
  if (updates.rank() < batch) return prefix_error();
  if (out.rank() < depth + (updates.rank() - batch)) return suffix_error();
  if (updates.rank() != batch + out.rank() - depth) return suffix_error();
  for (int d = 0; d < batch; ++d) {
    if (updates.dim(d) != indices.dim(d)) return prefix_error();
  }
  for (int d = 0; d < updates.rank() - batch; ++d) {
    if (updates.dim(d + batch) != out.dim(static_cast<int>(d + depth))) return suffix_error();
  }
  return Status::OK();
}

Status check_tensor_scatter_shapes(const Shape& out, const Shape& indices, const Shape& updates) {
  if (out.num_elements() == 0 && (indices.num_elements() > 0 || updates.num_elements() > 0)) {
    return errors::InvalidArgument("Indices and updates specified for empty output shape");
  }
  if (updates.rank() < 1) return errors::InvalidArgument("Updates shape must have rank at least one. Found:", updates);
  if (indices.rank() < 1) {
    return errors::InvalidArgument("Indices shape must have rank at least one. Currently got ", indices);
  }
  const int outer = indices.rank() - 1;
  auto outer_error = [&] {
    return errors::InvalidArgument("Outer dimensions of indices and update must match. Indices shape: ", indices,
                                   ", updates shape:", updates);
  };
  if (updates.rank() < outer) return outer_error();
  for (int i = 0; i < outer; ++i) {
    if (indices.dim(i) != updates.dim(i)) return outer_error();
  }
  const int64_t depth = indices.dim(outer);
  auto inner_error = [&] {
    return errors::InvalidArgument("Inner dimensions of output shape must match inner dimensions of updates "
                                   "shape. Output: ", out, " updates: ", updates);
  };
  if (updates.rank() - outer != out.rank() - depth) return inner_error();
  for (int i = 0; i + outer < updates.rank(); ++i) {
    if (updates.dim(i + outer) != out.dim(static_cast<int>(depth + i))) return inner_error();
  }
  return Status::OK();
}

namespace {

bool fully_known(const Shape& s) { return s.known_rank() && s.fully_defined(); }

Status gather_nd_shape(InferenceContext& c) {
  const Shape& params = c.input_shape(0);
  const Shape& indices = c.input_shape(1);
  if (params.known_rank() && params.rank() < 1) return errors::InvalidArgument("params must be at least a vector");
  if (indices.known_rank() && indices.rank() < 1) return errors::InvalidArgument("indices must be at least a vector");
  if (!indices.known_rank() || !params.known_rank() || indices.dim(indices.rank() - 1) < 0) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  const int64_t depth = indices.dim(indices.rank() - 1);
  if (depth > params.rank()) {
    return errors::InvalidArgument("index innermost dimension length must be <= params rank; saw: ", depth, " vs. ",
                                   params.rank());
  }
  std::vector<int64_t> dims(indices.dims().begin(), indices.dims().end() - 1);
  dims.insert(dims.end(), params.dims().begin() + depth, params.dims().end());
  c.set_output(0, c.input_dtype(0), Shape(std::move(dims)));
  return Status::OK();
}

Status scatter_nd_shape(InferenceContext& c) {
  const Shape& indices = c.input_shape(0);
  const Shape& updates = c.input_shape(1);
  const Shape& shape_shape = c.input_shape(2);
  if (shape_shape.known_rank() && shape_shape.rank() != 1) {
    return errors::InvalidArgument("Shape must be a 1-D tensor, got shape ", shape_shape);
  }
  if (updates.known_rank() && updates.rank() < 1) {
    return errors::InvalidArgument("Updates shape must have rank at least one. Found:", updates);
  }
  if (indices.known_rank() && indices.rank() < 1) {
    return errors::InvalidArgument("Indices shape must have rank at least one. Currently got ", indices);
  }
  const Tensor* shape_t = c.input_value(2);
  Shape out = Shape::unknown_rank();
  if (shape_t) {
    std::vector<int64_t> dims;
    GRAPHFN_RETURN_IF_ERROR(int_values(*shape_t, &dims));
    for (int64_t d : dims) {
      if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
    }
    out = Shape(dims);
    GRAPHFN_RETURN_IF_ERROR(check_output_size(out, c.input_dtype(1)));
  } else if (const Shape* partial = c.input_shape_value(2)) {
    out = *partial;
  } else if (static_length(shape_shape) >= 0) {
    out = unknown_dims(static_length(shape_shape));
  }
  if (fully_known(indices) && fully_known(updates) && fully_known(out)) {
    if (out.rank() == 0) return errors::InvalidArgument("Output must be at least 1-D, got shape: ", out);
    GRAPHFN_RETURN_IF_ERROR(check_scatter_nd_update_shape(indices, updates, out));
    if (out.num_elements() == 0 && (indices.num_elements() > 0 || updates.num_elements() > 0)) {
      if (!c.is_eager()) return errors::InvalidArgument("Indices and updates specified for empty input");
      return errors::InvalidArgument("Indices and updates specified for empty output.  indices shape: ", indices);
    }
  }
  c.set_output(0, c.input_dtype(1), std::move(out));
  return Status::OK();
}

Status tensor_scatter_shape(InferenceContext& c) {
  const Shape& tensor = c.input_shape(0);
  const Shape& indices = c.input_shape(1);
  const Shape& updates = c.input_shape(2);
  if (fully_known(tensor) && fully_known(indices) && fully_known(updates)) {
    GRAPHFN_RETURN_IF_ERROR(check_tensor_scatter_shapes(tensor, indices, updates));
  }
  c.set_output(0, c.input_dtype(0), tensor);
  return Status::OK();
}

// Variable updates check their shapes against the variable when they run.
Status resource_update_shape(InferenceContext& c) {
  if (c.input_shape(0).known_rank() && c.input_shape(0).rank() != 0) {
    return errors::InvalidArgument("resource handle must be a scalar, got shape ", c.input_shape(0));
  }
  return Status::OK();
}

}  // namespace

void register_scatter_nd_ops(OpRegistry& reg) {
  reg.op("GatherNd").input("params: Tparams").input("indices: Tindices").output("output: Tparams")
      .attr("Tparams: type").attr("Tindices: {int16, int32, int64}").attr("bad_indices_policy: string = ''")
      .shape_fn(gather_nd_shape, true);
  reg.op("ScatterNd").input("indices: Tindices").input("updates: T").input("shape: Tindices").output("output: T")
      .attr("T: type").attr("Tindices: {int16, int32, int64}").attr("bad_indices_policy: string = ''")
      .kernel_type_attr("T").shape_fn(scatter_nd_shape, true).shape_input("shape");
  reg.op("TensorScatterUpdate").input("tensor: T").input("indices: Tindices").input("updates: T")
      .output("output: T").attr("T: type").attr("Tindices: {int16, int32, int64, uint16}")
      .attr("bad_indices_policy: string = ''").shape_fn(tensor_scatter_shape, true);
  for (const char* name : {"TensorScatterAdd", "TensorScatterSub", "TensorScatterMin", "TensorScatterMax"}) {
    reg.op(name).input("tensor: T").input("indices: Tindices").input("updates: T").output("output: T")
        .attr("T: type").attr("Tindices: {int32, int64}").attr("bad_indices_policy: string = ''")
        .shape_fn(tensor_scatter_shape, true);
  }
  reg.op("ResourceScatterUpdate").input("resource: resource").input("indices: Tindices").input("updates: dtype")
      .attr("dtype: type").attr("Tindices: {int32, int64}").stateful().writes_resource()
      .shape_fn(resource_update_shape, true);
  for (const char* name : {"ResourceScatterAdd", "ResourceScatterSub", "ResourceScatterMul", "ResourceScatterDiv"}) {
    reg.op(name).input("resource: resource").input("indices: Tindices").input("updates: dtype")
        .attr("dtype: {numbertype}").attr("Tindices: {int32, int64}").stateful().writes_resource()
        .shape_fn(resource_update_shape, true);
  }
  for (const char* name : {"ResourceScatterMin", "ResourceScatterMax"}) {
    reg.op(name).input("resource: resource").input("indices: Tindices").input("updates: dtype")
        .attr("dtype: {realnumbertype}").attr("Tindices: {int32, int64}").stateful().writes_resource()
        .shape_fn(resource_update_shape, true);
  }
  for (const char* name : {"ResourceScatterNdUpdate", "ResourceScatterNdAdd", "ResourceScatterNdSub",
                           "ResourceScatterNdMin", "ResourceScatterNdMax"}) {
    reg.op(name).input("ref: resource").input("indices: Tindices").input("updates: T").attr("T: type")
        .attr("Tindices: {int32, int64}").attr("use_locking: bool = true").attr("bad_indices_policy: string = ''")
        .stateful().writes_resource().shape_fn(resource_update_shape, true);
  }
  reg.op("ResourceStridedSliceAssign").input("ref: resource").input("begin: Index").input("end: Index")
      .input("strides: Index").input("value: T").attr("T: type").attr("Index: {int32, int64}")
      .attr("begin_mask: int = 0").attr("end_mask: int = 0").attr("ellipsis_mask: int = 0")
      .attr("new_axis_mask: int = 0").attr("shrink_axis_mask: int = 0").stateful().writes_resource()
      .shape_fn(resource_update_shape, true);
}

}  // namespace graphfn
