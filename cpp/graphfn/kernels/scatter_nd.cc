// GatherNd, ScatterNd, TensorScatter*, the variable scatters and ResourceStridedSliceAssign.
// An index row (i0, ..., ik-1) addresses the slice x[i0, ..., ik-1, ...] of `slice` elements;
// rows are turned into flat element offsets (checked against the shape) before any data moves,
// so a bad index leaves the output or variable untouched, as in TF.
#include <memory>
#include <string>
#include <thread>

#include <Eigen/Core>  // float16/bfloat16 elements

#include "graphfn/core/resource.h"
#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/functors.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/scatter_nd_shapes.h"
#include "graphfn/kernels/strided_slice_inputs.h"

namespace graphfn {
namespace {

// "[1,0]": the position of flat row `row` in `outer` ("" for a scalar position).
std::string position(const Shape& outer, int64_t row) {
  if (outer.rank() == 0) return "";
  std::vector<int64_t> pos(outer.rank());
  for (int d = outer.rank() - 1; d >= 0; --d) {
    pos[d] = outer.dim(d) > 0 ? row % outer.dim(d) : 0;
    if (outer.dim(d) > 0) row /= outer.dim(d);
  }
  std::string s = "[";
  for (size_t d = 0; d < pos.size(); ++d) s += (d ? "," : "") + std::to_string(pos[d]);
  return s + "]";
}

// "[5, 1]": an index row as TF prints it.
template <typename Idx>
std::string row_text(const Idx* row, int64_t depth) {
  std::string s = "[";
  for (int64_t j = 0; j < depth; ++j) s += (j ? ", " : "") + std::to_string(static_cast<int64_t>(row[j]));
  return s + "]";
}

Shape outer_shape(const Shape& indices) {
  Shape outer = indices;
  if (outer.rank() > 0) outer.remove_dim(outer.rank() - 1);
  return outer;
}

// Flat element offsets of the index rows into `shape` (each row addresses `slice` elements).
// Returns the first bad row's number in *bad (else -1).
template <typename Idx>
void row_offsets(const Idx* idx, int64_t rows, int64_t depth, const Shape& shape, int64_t slice, int64_t* offsets,
                 int64_t* bad) {
  *bad = -1;
  std::vector<int64_t> stride(depth);
  int64_t s = slice;
  for (int64_t j = depth - 1; j >= 0; --j) {
    stride[j] = s;
    s *= shape.dim(static_cast<int>(j));
  }
  for (int64_t r = 0; r < rows; ++r) {
    const Idx* row = idx + r * depth;
    int64_t off = 0;
    for (int64_t j = 0; j < depth; ++j) {
      const int64_t v = static_cast<int64_t>(row[j]);
      if (v < 0 || v >= shape.dim(static_cast<int>(j))) {
        *bad = r;
        return;
      }
      off += v * stride[j];
    }
    offsets[r] = off;
  }
}

// Index tensors as int64 rows, whatever their integer dtype.
struct IndexRows {
  std::vector<int64_t> values;
  int64_t rows = 0, depth = 0;
};

Status index_rows(const Tensor& indices, bool last_dim_is_depth, IndexRows* out) {
  GRAPHFN_RETURN_IF_ERROR(int_values(indices, &out->values));
  if (last_dim_is_depth) {
    out->depth = indices.rank() > 0 ? indices.dim(indices.rank() - 1) : 0;
    out->rows = out->depth > 0 ? indices.num_elements() / out->depth : dims_product(indices.shape(), 0, indices.rank() - 1);
  } else {
    out->depth = 1;
    out->rows = indices.num_elements();
  }
  return Status::OK();
}

// ---- GatherNd ----

template <typename E, typename Idx>
Status gather_nd_typed(const Tensor& params, const Tensor& indices, Tensor* out) {
  const int64_t depth = indices.dim(indices.rank() - 1);
  const int64_t slice = dims_product(params.shape(), static_cast<int>(depth), params.rank());
  const int64_t rows = out->num_elements() / (slice > 0 ? slice : 1);
  const Idx* idx = indices.data<Idx>();
  const E* src = params.data<E>();
  E* dst = out->data<E>();
  if (slice == 0) return Status::OK();
  // Strides of the indexed dims, in elements.
  int64_t strides[8];
  std::vector<int64_t> big_strides;
  int64_t* stride = depth <= 8 ? strides : (big_strides.resize(depth), big_strides.data());
  int64_t s = slice;
  for (int64_t j = depth - 1; j >= 0; --j) {
    stride[j] = s;
    s *= params.dim(static_cast<int>(j));
  }
  const int64_t* dims = params.shape().dims().begin();
  // TF reports the last bad row its loop met: each half keeps its last, the later half wins.
  int64_t bad_in_half[2] = {-1, -1};
  auto work = [&](int64_t begin, int64_t end, int64_t* bad) {
    if (slice == 1 && depth == 2) {  // element gathers from a matrix: the common large case
      const uint64_t rows_limit = static_cast<uint64_t>(dims[0]), cols_limit = static_cast<uint64_t>(dims[1]);
      const int64_t row_stride = stride[0];
      int64_t last_bad = -1;
      for (int64_t r = begin; r < end; ++r) {
        const uint64_t a = static_cast<uint64_t>(static_cast<int64_t>(idx[2 * r]));
        const uint64_t b = static_cast<uint64_t>(static_cast<int64_t>(idx[2 * r + 1]));
        if (a >= rows_limit || b >= cols_limit) {
          last_bad = r;
          continue;
        }
        dst[r] = src[static_cast<int64_t>(a) * row_stride + static_cast<int64_t>(b)];
      }
      if (last_bad >= 0) *bad = last_bad;
      return;
    }
    for (int64_t r = begin; r < end; ++r) {
      const Idx* row = idx + r * depth;
      int64_t off = 0;
      bool ok = true;
      for (int64_t j = 0; j < depth; ++j) {
        const uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(row[j]));
        if (v >= static_cast<uint64_t>(dims[j])) {
          ok = false;
          break;
        }
        off += static_cast<int64_t>(v) * stride[j];
      }
      if (!ok) {
        *bad = r;
        continue;
      }
      if (slice == 1) {
        dst[r] = src[off];
      } else {
        std::copy_n(src + off, slice, dst + r * slice);
      }
    }
  };
  // Large gathers use a second thread: the machine's memory bandwidth is the limit.
  const int64_t work_size = rows * (slice + depth);
  if (work_size >= (int64_t{1} << 18) && std::thread::hardware_concurrency() > 1) {
    const int64_t half = rows / 2;
    std::thread helper([&] { work(half, rows, &bad_in_half[1]); });
    work(0, half, &bad_in_half[0]);
    helper.join();
  } else {
    work(0, rows, &bad_in_half[0]);
  }
  const int64_t bad = bad_in_half[1] >= 0 ? bad_in_half[1] : bad_in_half[0];
  if (bad >= 0) {
    return errors::InvalidArgument("indices", position(outer_shape(indices.shape()), bad), " = ",
                                   row_text(idx + bad * depth, depth), " does not index into param shape ",
                                   params.shape(), ", node name: GatherNd");
  }
  return Status::OK();
}

Status gather_nd_kernel(KernelContext& c) {
  const Tensor& params = c.input(0);
  const Tensor& indices = c.input(1);
  Tensor* out;
  GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
  const int64_t rows = dims_product(indices.shape(), 0, indices.rank() - 1);
  if (params.num_elements() == 0 && rows > 0) {
    return errors::InvalidArgument("Requested more than 0 entries, but params is empty.  Params shape: ",
                                   params.shape());
  }
  if (out->num_elements() == 0) return Status::OK();
  Status status;
  visit_storage(params.dtype(), [&](auto tag) {
    using E = decltype(tag);
    visit_dtype(indices.dtype(), TypeList<int16_t, int32_t, int64_t>{}, [&](auto itag) {
      status = gather_nd_typed<E, decltype(itag)>(params, indices, out);
    });
  });
  return status;
}

// ---- scatter: applying updates at offsets ----

enum class Combine { kUpdate, kAdd, kSub, kMul, kDiv, kMin, kMax };

// The dtypes a combining scatter computes on (each op registers the subset TF's CPU kernels
// take): ScatterNd also sums bools (or) and strings (concatenation), as TF's does.
using ScatterArithmeticTypes = Concat<NumericTypes, HalfTypes, ComplexTypes, WideUnsignedTypes, TypeList<bool, std::string>>;
template <typename T> constexpr bool is_complex_v = false;
template <typename T> constexpr bool is_complex_v<std::complex<T>> = true;

template <typename T>
Status combine_slice(T* dst, const T* src, int64_t n, Combine how) {
  switch (how) {
    case Combine::kUpdate: std::copy_n(src, n, dst); break;
    case Combine::kAdd:
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, bool>) dst[i] = dst[i] || src[i]; else dst[i] = functors::wrap_add(dst[i], src[i]);
      }
      break;
    case Combine::kSub:
      if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, std::string>) {
        for (int64_t i = 0; i < n; ++i) dst[i] = functors::wrap_sub(dst[i], src[i]);
      }
      break;
    case Combine::kMul:
      if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, std::string>) {
        for (int64_t i = 0; i < n; ++i) dst[i] = functors::wrap_mul(dst[i], src[i]);
      }
      break;
    case Combine::kDiv:
      if constexpr (std::is_same_v<T, std::string>) break; else
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral_v<T>) {
          if (src[i] == 0) return errors::InvalidArgument("updates must not contain 0");
          if (std::is_signed_v<T> && src[i] == T(-1)) {
            dst[i] = functors::wrap_neg(dst[i]);
            continue;
          }
        }
        dst[i] = static_cast<T>(dst[i] / src[i]);
      }
      break;
    case Combine::kMin:
      if constexpr (!is_complex_v<T>) {
        for (int64_t i = 0; i < n; ++i) dst[i] = src[i] < dst[i] ? src[i] : dst[i];
      }
      break;
    case Combine::kMax:
      if constexpr (!is_complex_v<T>) {
        for (int64_t i = 0; i < n; ++i) dst[i] = src[i] > dst[i] ? src[i] : dst[i];
      }
      break;
  }
  return Status::OK();
}

// dst (already holding the base values) <- combine(dst slices at offsets, updates). A scalar
// `updates` (variable scatters) is broadcast over every slice.
Status apply_updates(Tensor* dst, const std::vector<int64_t>& offsets, int64_t slice, const Tensor& updates,
                     Combine how) {
  const bool scalar = updates.num_elements() == 1 && offsets.size() * slice != 1 && updates.rank() == 0;
  Status status;
  if (how == Combine::kUpdate) {
    visit_storage(dst->dtype(), [&](auto tag) {
      using E = decltype(tag);
      E* out = dst->data<E>();
      const E* src = updates.data<E>();
      for (size_t r = 0; r < offsets.size(); ++r) {
        if (scalar) {
          std::fill_n(out + offsets[r], slice, *src);
        } else {
          std::copy_n(src + r * slice, slice, out + offsets[r]);
        }
      }
    });
    return Status::OK();
  }
  const bool known = visit_dtype(dst->dtype(), ScatterArithmeticTypes{}, [&](auto tag) {
    using T = decltype(tag);
    T* out = dst->data<T>();
    const T* src = updates.data<T>();
    std::unique_ptr<T[]> broadcast;  // (not std::vector: vector<bool> has no data())
    if (scalar) {
      broadcast.reset(new T[static_cast<size_t>(slice)]);
      std::fill_n(broadcast.get(), slice, *src);
    }
    for (size_t r = 0; r < offsets.size() && status.ok(); ++r) {
      status = combine_slice<T>(out + offsets[r], scalar ? broadcast.get() : src + r * slice, slice, how);
    }
  });
  if (!known) return errors::InvalidArgument("Unsupported dtype for a scatter: ", dtype_name(dst->dtype()));
  return status;
}

// A copy of t in new memory (the kernels below never write into an input).
Status copy_tensor(const Tensor& t, Tensor* out) {
  GRAPHFN_RETURN_IF_ERROR(Tensor::make(t.dtype(), t.shape(), out));
  if (t.num_elements() == 0) return Status::OK();
  visit_storage(t.dtype(), [&](auto tag) {
    using E = decltype(tag);
    std::copy_n(t.data<E>(), t.num_elements(), out->data<E>());
  });
  return Status::OK();
}

// The nd form shared by ScatterNd, TensorScatter* and ResourceScatterNd*: `base` (copied into
// *out) updated at the rows of `indices` (last dim = index depth).
Status scatter_nd_into(const Tensor& indices, const Tensor& updates, Combine how, const char* shape_word,
                       Tensor* out) {
  IndexRows rows;
  GRAPHFN_RETURN_IF_ERROR(index_rows(indices, true, &rows));
  const Shape& shape = out->shape();
  const int64_t slice = dims_product(shape, static_cast<int>(rows.depth), shape.rank());
  std::vector<int64_t> offsets(rows.rows);
  int64_t bad;
  row_offsets(rows.values.data(), rows.rows, rows.depth, shape, slice, offsets.data(), &bad);
  if (bad >= 0) {
    return errors::InvalidArgument("indices", position(outer_shape(indices.shape()), bad), " = ",
                                   row_text(rows.values.data() + bad * rows.depth, rows.depth),
                                   " does not index into ", shape_word, shape);
  }
  return apply_updates(out, offsets, slice, updates, how);
}

Status scatter_nd_kernel(KernelContext& c) {
  Tensor* out;
  GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
  visit_storage(out->dtype(), [&](auto tag) {
    using E = decltype(tag);
    std::fill_n(out->data<E>(), out->num_elements(), E{});
  });
  if (c.input(1).num_elements() == 0) return Status::OK();
  return scatter_nd_into(c.input(0), c.input(1), Combine::kAdd, "shape ", out);
}

template <Combine kHow>
Status tensor_scatter_kernel(KernelContext& c) {
  Tensor result;
  GRAPHFN_RETURN_IF_ERROR(copy_tensor(c.input(0), &result));
  if (c.input(2).num_elements() > 0) {
    GRAPHFN_RETURN_IF_ERROR(scatter_nd_into(c.input(1), c.input(2), kHow, "shape ", &result));
  }
  c.set_output(0, std::move(result));
  return Status::OK();
}

// ---- variables ----

Status variable_of(KernelContext& c, const char* dtype_attr, std::shared_ptr<VariableResource>* out) {
  *out = std::dynamic_pointer_cast<VariableResource>(*c.input(0).data<ResourceHandle>());
  if (!*out) return errors::FailedPrecondition("Resource handle does not refer to a variable");
  if ((*out)->dtype() != c.type_attr(dtype_attr)) {
    return errors::InvalidArgument("Trying to access variable with wrong dtype. Expected ",
                                   dtype_tf_string((*out)->dtype()), " got ", dtype_tf_string(c.type_attr(dtype_attr)));
  }
  return Status::OK();
}

// ResourceScatter*: indices address rows of the variable's first dim.
template <Combine kHow>
Status resource_scatter_kernel(KernelContext& c) {
  std::shared_ptr<VariableResource> var;
  GRAPHFN_RETURN_IF_ERROR(variable_of(c, "dtype", &var));
  const Tensor& indices = c.input(1);
  const Tensor& updates = c.input(2);
  if (kHow == Combine::kDiv && is_integer(updates.dtype())) {  // TF checks this first
    std::vector<int64_t> values;
    GRAPHFN_RETURN_IF_ERROR(int_values(updates, &values));
    for (int64_t v : values) {
      if (v == 0) return errors::InvalidArgument("updates must not contain 0");
    }
  }
  return var->update([&](const Tensor& current, Tensor* next) {
    const Shape& vs = current.shape();
    if (updates.rank() != 0 && kHow != Combine::kUpdate) {
      Shape expected = indices.shape();
      for (int d = 1; d < vs.rank(); ++d) expected.add_dim(vs.dim(d));
      if (vs.rank() < 1 || updates.shape() != expected) {
        return errors::InvalidArgument("Must have updates.shape = indices.shape + params.shape[1:] or updates.shape "
                                       "= [], got updates.shape ", updates.shape(), ", indices.shape ",
                                       indices.shape(), ", params.shape ", vs);
      }
    }
    if (vs.rank() < 1) return errors::InvalidArgument("params must be at least 1-D, got shape ", vs);
    if (updates.rank() != 0) {
      Shape expected = indices.shape();
      for (int d = 1; d < vs.rank(); ++d) expected.add_dim(vs.dim(d));
      bool prefix = updates.rank() >= indices.rank();
      for (int d = 0; prefix && d < indices.rank(); ++d) prefix = updates.dim(d) == indices.dim(d);
      if (!prefix) {
        return errors::InvalidArgument("The shape of indices (", indices.shape(),
                                       ") must be a prefix of the shape of updates (", updates.shape(), ")");
      }
      if (updates.shape() != expected) {
        return errors::InvalidArgument("Must have updates.shape = indices.shape + params.shape[1:] or updates.shape "
                                       "= [], got updates.shape ", updates.shape(), ", indices.shape ",
                                       indices.shape(), ", params.shape ", vs);
      }
    }
    IndexRows rows;
    GRAPHFN_RETURN_IF_ERROR(index_rows(indices, false, &rows));
    const int64_t slice = dims_product(vs, 1, vs.rank());
    std::vector<int64_t> offsets(rows.rows);
    for (int64_t r = 0; r < rows.rows; ++r) {
      const int64_t v = rows.values[r];
      if (v < 0 || v >= vs.dim(0)) {
        return errors::InvalidArgument("indices[", r, "] = ", v, " is not in [0, ", vs.dim(0), ")");
      }
      offsets[r] = v * slice;
    }
    GRAPHFN_RETURN_IF_ERROR(copy_tensor(current, next));
    return apply_updates(next, offsets, slice, updates, kHow);
  });
}

// "1,2": dims [begin, end) of s, as TF's variable scatters print the dims that must match.
std::string dims_text(const Shape& s, int begin, int end) {
  std::string text;
  for (int d = begin; d < end; ++d) text += (d > begin ? "," : "") + std::to_string(s.dim(d));
  return text;
}

// updates must be indices.shape[:-1] + var.shape[depth:] (TF's texts for ResourceScatterNd*).
Status check_variable_scatter_nd_shapes(const Shape& indices, const Shape& updates, const Shape& var) {
  const int batch = indices.rank() - 1;
  const int depth = static_cast<int>(indices.dim(batch));
  bool prefix_ok = updates.rank() >= batch;
  for (int d = 0; prefix_ok && d < batch; ++d) prefix_ok = updates.dim(d) == indices.dim(d);
  if (!prefix_ok) {
    return errors::InvalidArgument("Dimensions [0,", batch, ") of indices[shape=", indices, "] = ",
                                   dims_text(indices, 0, batch), " must match dimensions [0,", batch,
                                   ") of updates[shape=", updates, "] = ",
                                   dims_text(updates, 0, std::min(batch, updates.rank())));
  }
  bool suffix_ok = updates.rank() - batch == var.rank() - depth;
  for (int d = 0; suffix_ok && d < updates.rank() - batch; ++d) suffix_ok = updates.dim(batch + d) == var.dim(depth + d);
  if (!suffix_ok) {
    return errors::InvalidArgument("Dimensions [", depth, ",", var.rank(), ") of input[shape=", var, "] = ",
                                   dims_text(var, depth, var.rank()), " must match dimensions [", batch, ",",
                                   updates.rank(), ") of updates[shape=", updates, "] = ",
                                   dims_text(updates, batch, updates.rank()));
  }
  return Status::OK();
}

template <Combine kHow>
Status resource_scatter_nd_kernel(KernelContext& c) {
  std::shared_ptr<VariableResource> var;
  GRAPHFN_RETURN_IF_ERROR(variable_of(c, "T", &var));
  const Tensor& indices = c.input(1);
  const Tensor& updates = c.input(2);
  return var->update([&](const Tensor& current, Tensor* next) {
    if (indices.rank() < 1) {
      return errors::InvalidArgument("Indices shape must have rank at least one. Currently got ", indices.shape());
    }
    if (current.rank() == 0) return errors::InvalidArgument("Output must be at least 1-D, got shape: ", current.shape());
    if (current.num_elements() == 0 && (indices.num_elements() > 0 || updates.num_elements() > 0)) {
      return errors::InvalidArgument("Indices and updates specified for empty output.  indices shape: ",
                                     indices.shape());
    }
    const int64_t depth = indices.dim(indices.rank() - 1);
    if (depth > current.rank()) {
      return errors::InvalidArgument("Dimensions [", depth, ",", current.rank(), ") of input[shape=",
                                     current.shape(), "] must match dimensions [", indices.rank() - 1, ",",
                                     updates.rank(), ") of updates[shape=", updates.shape(), "]");
    }
    GRAPHFN_RETURN_IF_ERROR(check_variable_scatter_nd_shapes(indices.shape(), updates.shape(), current.shape()));
    GRAPHFN_RETURN_IF_ERROR(copy_tensor(current, next));
    if (updates.num_elements() == 0) return Status::OK();
    return scatter_nd_into(indices, updates, kHow, "shape ", next);
  });
}

// v[begin:end:strides] = value, value broadcast to the slice's shape.
Status strided_slice_assign_kernel(KernelContext& c) {
  std::shared_ptr<VariableResource> var;
  GRAPHFN_RETURN_IF_ERROR(variable_of(c, "T", &var));
  StridedSliceInputs spec;
  GRAPHFN_RETURN_IF_ERROR(read_strided_slice_inputs(c, &spec));
  const Tensor& value = c.input(4);
  return var->update([&](const Tensor& current, Tensor* next) {
    StridedSliceResult r;
    GRAPHFN_RETURN_IF_ERROR(spec.slice_of(current.shape(), &r));
    if (r.output_shape.num_elements() == 0) return copy_tensor(current, next);  // TF checks nothing then
    Shape target;
    if (!broadcast_shapes(value.shape(), r.output_shape, &target).ok() || target != r.output_shape) {
      return errors::InvalidArgument("Cannot broadcast input shape ", value.shape(), " into final shape ",
                                     r.output_shape);
    }
    GRAPHFN_RETURN_IF_ERROR(copy_tensor(current, next));
    const int64_t n = r.output_shape.num_elements();
    if (n == 0) return Status::OK();
    Tensor dense;
    GRAPHFN_RETURN_IF_ERROR(Tensor::make(value.dtype(), r.output_shape, &dense));
    strided_copy(value, broadcast_view(value.shape(), r.output_shape), &dense);
    const std::vector<int64_t> st = row_major_strides(current.shape());
    const int rank = current.rank();
    visit_storage(current.dtype(), [&](auto tag) {
      using E = decltype(tag);
      E* dst = next->data<E>();
      const E* src = dense.data<E>();
      std::vector<int64_t> index(rank, 0);
      for (int64_t k = 0; k < n; ++k) {
        int64_t off = 0;
        for (int d = 0; d < rank; ++d) off += (r.begin[d] + index[d] * r.strides[d]) * st[d];
        dst[off] = src[k];
        for (int d = rank - 1; d >= 0; --d) {
          if (++index[d] < r.sizes[d]) break;
          index[d] = 0;
        }
      }
    });
    return Status::OK();
  });
}

template <typename... Ts>
void register_each(OpRegistry& reg, const char* op, KernelFn fn, TypeList<Ts...>) {
  (reg.set_kernel(op, DTypeOf<Ts>::value, fn), ...);
}

void register_numeric(OpRegistry& reg, const char* op, KernelFn fn) { register_each(reg, op, fn, NumericTypes{}); }
// TF 2.21's CPU kernels of the tensor scatters: float16/bfloat16 and the wide unsigned ints too,
// complex for add/sub (not min/max), bool and string for ScatterNd.
using TensorScatterOrderedTypes = Concat<NumericTypes, HalfTypes, WideUnsignedTypes>;
using TensorScatterAddTypes = Concat<TensorScatterOrderedTypes, ComplexTypes>;

}  // namespace

void register_scatter_nd_kernels(OpRegistry& reg) {
  register_for_all_dtypes(reg, "GatherNd", &gather_nd_kernel);
  register_each(reg, "ScatterNd", &scatter_nd_kernel, Concat<TensorScatterAddTypes, TypeList<bool, std::string>>{});
  register_for_all_dtypes(reg, "TensorScatterUpdate", &tensor_scatter_kernel<Combine::kUpdate>);
  register_each(reg, "TensorScatterAdd", &tensor_scatter_kernel<Combine::kAdd>, TensorScatterAddTypes{});
  register_each(reg, "TensorScatterSub", &tensor_scatter_kernel<Combine::kSub>, TensorScatterAddTypes{});
  register_each(reg, "TensorScatterMin", &tensor_scatter_kernel<Combine::kMin>, TensorScatterOrderedTypes{});
  register_each(reg, "TensorScatterMax", &tensor_scatter_kernel<Combine::kMax>, TensorScatterOrderedTypes{});
  register_for_all_dtypes(reg, "ResourceScatterUpdate", &resource_scatter_kernel<Combine::kUpdate>);
  register_numeric(reg, "ResourceScatterAdd", &resource_scatter_kernel<Combine::kAdd>);
  register_numeric(reg, "ResourceScatterSub", &resource_scatter_kernel<Combine::kSub>);
  register_numeric(reg, "ResourceScatterMul", &resource_scatter_kernel<Combine::kMul>);
  register_numeric(reg, "ResourceScatterDiv", &resource_scatter_kernel<Combine::kDiv>);
  register_numeric(reg, "ResourceScatterMin", &resource_scatter_kernel<Combine::kMin>);
  register_numeric(reg, "ResourceScatterMax", &resource_scatter_kernel<Combine::kMax>);
  register_for_all_dtypes(reg, "ResourceScatterNdUpdate", &resource_scatter_nd_kernel<Combine::kUpdate>);
  register_numeric(reg, "ResourceScatterNdAdd", &resource_scatter_nd_kernel<Combine::kAdd>);
  register_numeric(reg, "ResourceScatterNdSub", &resource_scatter_nd_kernel<Combine::kSub>);
  register_numeric(reg, "ResourceScatterNdMin", &resource_scatter_nd_kernel<Combine::kMin>);
  register_numeric(reg, "ResourceScatterNdMax", &resource_scatter_nd_kernel<Combine::kMax>);
  register_for_all_dtypes(reg, "ResourceStridedSliceAssign", &strided_slice_assign_kernel);
}

}  // namespace graphfn
