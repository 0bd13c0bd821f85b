// Tile, Split/SplitV, Pad/PadV2/MirrorPad, MirrorPadGrad, ReverseV2, Roll, and the small shape
// utilities (EnsureShape, IdentityN, ShapeN, UnravelIndex, BroadcastArgs). The rearranging ops
// share one primitive: every output dim d has a map from output coordinate to input coordinate
// (-1: a padding element), and the output is the input read through those maps.
#include <cstring>

#include "graphfn/kernels/array_util.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/shape_index_checks.h"

namespace graphfn {
namespace {

using DimMaps = std::vector<std::vector<int64_t>>;

// out[i0, i1, ...] = in[maps[0][i0], maps[1][i1], ...], or *fill where a map gives -1.
template <typename E>
void read_through_maps(const E* in, const Shape& in_shape, const DimMaps& maps, const E* fill, E* out) {
  const int rank = in_shape.rank();
  if (rank == 0) {
    *out = *in;
    return;
  }
  const std::vector<int64_t> strides = row_major_strides(in_shape);
  const std::vector<int64_t>& inner = maps[rank - 1];
  const int64_t n_inner = static_cast<int64_t>(inner.size());
  // Runs of consecutive input coordinates in the innermost map become block copies.
  struct Run { int64_t out_begin, in_begin, length; };
  std::vector<Run> runs;
  for (int64_t j = 0; j < n_inner;) {
    int64_t k = j + 1;
    if (inner[j] >= 0) {
      while (k < n_inner && inner[k] == inner[k - 1] + 1) ++k;
    } else {
      while (k < n_inner && inner[k] < 0) ++k;
    }
    runs.push_back({j, inner[j], k - j});
    j = k;
  }
  std::vector<int64_t> index(rank, 0);
  for (int d = 0; d < rank; ++d) {
    if (maps[d].empty()) return;
  }
  for (;;) {
    // The row's input offset, or -1 if an outer coordinate is padding.
    int64_t offset = 0;
    for (int d = 0; d < rank - 1; ++d) {
      const int64_t src = maps[d][index[d]];
      if (src < 0) {
        offset = -1;
        break;
      }
      offset += src * strides[d];
    }
    if (offset < 0) {
      std::fill_n(out, n_inner, *fill);
    } else {
      for (const Run& r : runs) {
        if (r.in_begin < 0) {
          std::fill_n(out + r.out_begin, r.length, *fill);
        } else {
          std::copy_n(in + offset + r.in_begin, r.length, out + r.out_begin);
        }
      }
    }
    out += n_inner;
    int d = rank - 2;
    for (; d >= 0; --d) {
      if (++index[d] < static_cast<int64_t>(maps[d].size())) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

// Output 0 = input 0 read through `maps` (fill: a scalar tensor of the dtype, or null).
Status write_mapped(KernelContext& c, const DimMaps& maps, const Tensor* fill) {
  Tensor* out;
  GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
  if (out->num_elements() == 0) return Status::OK();
  const Tensor& in = c.input(0);
  visit_storage(in.dtype(), [&](auto tag) {
    using E = decltype(tag);
    const E zero{};
    read_through_maps<E>(in.data<E>(), in.shape(), maps, fill ? fill->data<E>() : &zero, out->data<E>());
  });
  return Status::OK();
}

std::vector<int64_t> identity_map(int64_t n, int64_t begin = 0) {
  std::vector<int64_t> m(n);
  for (int64_t i = 0; i < n; ++i) m[i] = begin + i;
  return m;
}

DimMaps identity_maps(const Shape& s) {
  DimMaps maps;
  for (int64_t d : s.dims()) maps.push_back(identity_map(d));
  return maps;
}

Status forward_kernel(KernelContext& c) {
  c.set_output(0, c.input(0));
  return Status::OK();
}

// An empty output may still have huge dims: nothing to map then.
bool output_is_empty(KernelContext& c, Status* status) {
  if (c.output_shapes[0].num_elements() != 0) return false;
  Tensor* out;
  *status = allocate_checked(c, 0, &out);
  return true;
}

Status tile_kernel(KernelContext& c) {
  Status empty;
  if (output_is_empty(c, &empty)) return empty;
  const Shape& in = c.input(0).shape();
  const Shape& out = c.output_shapes[0];
  DimMaps maps(in.rank());
  for (int d = 0; d < in.rank(); ++d) {
    maps[d].resize(out.dim(d));
    for (int64_t j = 0; j < out.dim(d); ++j) maps[d][j] = j % in.dim(d);
  }
  return write_mapped(c, maps, nullptr);
}

// The input coordinate a padded coordinate reads: pad constants -1; mirror modes reflect.
int64_t padded_source(int64_t j, int64_t before, int64_t dim, int mode) {
  int64_t i = j - before;
  if (i >= 0 && i < dim) return i;
  if (mode == 0) return -1;
  const int64_t shift = mode == 1 ? 1 : 0;  // REFLECT excludes the edge, SYMMETRIC repeats it
  if (i < 0) return -i - 1 + shift;
  return 2 * dim - i - 1 - shift;
}

int pad_mode(const KernelContext& c) {
  const std::string* mode = c.attrs.get_string("mode");
  if (!mode) return 0;
  return *mode == "REFLECT" ? 1 : 2;
}

DimMaps pad_maps(const Shape& in, const std::vector<int64_t>& pads, int mode) {
  DimMaps maps(in.rank());
  for (int d = 0; d < in.rank(); ++d) {
    const int64_t n = in.dim(d) + pads[2 * d] + pads[2 * d + 1];
    maps[d].resize(n);
    for (int64_t j = 0; j < n; ++j) maps[d][j] = padded_source(j, pads[2 * d], in.dim(d), mode);
  }
  return maps;
}

Status pad_kernel(KernelContext& c) {
  Status empty;
  if (output_is_empty(c, &empty)) return empty;
  std::vector<int64_t> pads;
  GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &pads));
  const Tensor* fill = c.num_inputs == 3 ? &c.input(2) : nullptr;
  return write_mapped(c, pad_maps(c.input(0).shape(), pads, pad_mode(c)), fill);
}

// The gradient of a mirror pad: each padded element's gradient is added to the element it copied.
template <typename T>
struct MirrorPadGradKernel {
  static Status compute(KernelContext& c) {
    std::vector<int64_t> pads;
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &pads));
    Tensor* out;
    GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
    const Shape& small = out->shape();
    T* dst = out->data<T>();
    std::fill_n(dst, out->num_elements(), T(0));
    const Tensor& grad = c.input(0);
    if (grad.num_elements() == 0) return Status::OK();
    const DimMaps maps = pad_maps(small, pads, pad_mode(c));
    const std::vector<int64_t> strides = row_major_strides(small);
    const T* src = grad.data<T>();
    const int rank = small.rank();
    std::vector<int64_t> index(rank, 0);
    for (int64_t k = 0; k < grad.num_elements(); ++k) {
      int64_t offset = 0;
      for (int d = 0; d < rank; ++d) offset += maps[d][index[d]] * strides[d];
      dst[offset] += src[k];
      for (int d = rank - 1; d >= 0; --d) {
        if (++index[d] < static_cast<int64_t>(maps[d].size())) break;
        index[d] = 0;
      }
    }
    return Status::OK();
  }
};

Status reverse_kernel(KernelContext& c) {
  // TF checks no axes of a scalar or an empty tensor.
  if (c.input(0).rank() == 0 || c.input(0).num_elements() == 0) return forward_kernel(c);
  const Shape& s = c.input(0).shape();
  std::vector<int64_t> axes;
  GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &axes));
  GRAPHFN_RETURN_IF_ERROR(check_reverse_axes(s.rank(), axes));
  Status empty;
  if (output_is_empty(c, &empty)) return empty;
  DimMaps maps = identity_maps(s);
  for (int64_t a : axes) {
    const int d = static_cast<int>(a < 0 ? a + s.rank() : a);
    std::reverse(maps[d].begin(), maps[d].end());
  }
  return write_mapped(c, maps, nullptr);
}

Status roll_kernel(KernelContext& c) {
  const Shape& s = c.input(0).shape();
  std::vector<int64_t> shifts, axes;
  GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &shifts));
  GRAPHFN_RETURN_IF_ERROR(int_values(c.input(2), &axes));
  GRAPHFN_RETURN_IF_ERROR(check_roll_args(s.rank(), static_cast<int64_t>(shifts.size()), axes));
  Status empty;
  if (output_is_empty(c, &empty)) return empty;
  // Shifts along one axis add up, as in TF.
  std::vector<int64_t> total(s.rank(), 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int d = static_cast<int>(axes[i] < 0 ? axes[i] + s.rank() : axes[i]);
    const int64_t n = s.dim(d);
    if (n > 0) total[d] = ((total[d] + shifts[i] % n) % n + n) % n;
  }
  DimMaps maps(s.rank());
  for (int d = 0; d < s.rank(); ++d) {
    const int64_t n = s.dim(d);
    maps[d].resize(n);
    for (int64_t j = 0; j < n; ++j) maps[d][j] = ((j - total[d]) % n + n) % n;
  }
  return write_mapped(c, maps, nullptr);
}

// Split and SplitV: output i is the block [offset_i, offset_i + size_i) along the axis.
Status split_outputs(KernelContext& c, const Tensor& value, int axis) {
  const Shape& s = value.shape();
  const int64_t outer = dims_product(s, 0, axis);
  const int64_t inner = dims_product(s, axis + 1, s.rank());
  const int64_t row = s.dim(axis) * inner;
  int64_t offset = 0;
  for (int i = 0; i < c.num_outputs; ++i) {
    Tensor* out;
    GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, i, &out));
    const int64_t block = c.output_shapes[i].dim(axis) * inner;
    if (out->num_elements() > 0) {
      visit_storage(value.dtype(), [&](auto tag) {
        using E = decltype(tag);
        const E* src = value.data<E>() + offset;
        E* dst = out->data<E>();
        for (int64_t o = 0; o < outer; ++o) dst = std::copy_n(src + o * row, block, dst);
      });
    }
    offset += block;
  }
  return Status::OK();
}

Status split_kernel(KernelContext& c) {
  const Tensor& value = c.input(1);
  int axis;  // checked again: a static step skips the shape function (shape_index_checks.h)
  GRAPHFN_RETURN_IF_ERROR(split_axis(first_int(c.input(0)), value.rank(), &axis));
  if (c.num_outputs == 1) {
    c.set_output(0, value);
    return Status::OK();
  }
  return split_outputs(c, value, axis);
}

Status split_v_kernel(KernelContext& c) {
  const Tensor& value = c.input(0);
  int axis;
  GRAPHFN_RETURN_IF_ERROR(split_axis(first_int(c.input(2)), value.rank(), &axis));
  if (c.num_outputs == 1) {
    c.set_output(0, value);
    return Status::OK();
  }
  return split_outputs(c, value, axis);
}

Status identity_n_kernel(KernelContext& c) {
  for (int i = 0; i < c.num_inputs; ++i) c.set_output(i, c.input(i));
  return Status::OK();
}

template <typename T>
struct ShapeNKernel {
  static Status compute(KernelContext& c) {
    for (int i = 0; i < c.num_inputs; ++i) {
      Tensor& out = c.allocate_output(i);
      const Shape& s = c.input(i).shape();
      for (int d = 0; d < s.rank(); ++d) out.data<T>()[d] = static_cast<T>(s.dim(d));
    }
    return Status::OK();
  }
};

template <typename T>
struct UnravelIndexKernel {
  static Status compute(KernelContext& c) {
    const Tensor& indices = c.input(0);
    const Tensor& dims_t = c.input(1);
    const T* dims = dims_t.data<T>();
    const int64_t n = dims_t.num_elements();
    const int64_t count = indices.num_elements();
    if (count == 0) {
      return errors::InvalidArgument("received empty tensor indices: Tensor<type: ", dtype_name(indices.dtype()),
                                     " shape: ", indices.shape(), " values: >");
    }
    int64_t total = 1;
    for (int64_t i = 0; i < n; ++i) {
      if (dims[i] == 0) {
        return errors::InvalidArgument("Input dims cannot contain a dim of zero, but dims contains zero at index ", i);
      }
      if (dims[i] < 0) return errors::InvalidArgument("Input dims cannot be negative. Got dim = ", dims[i], " at index ", i);
      total = total > INT64_MAX / dims[i] ? INT64_MAX : total * dims[i];
    }
    const T* idx = indices.data<T>();
    // Only the upper bound is checked, as in TF: a negative index unravels with C++'s / and %.
    for (int64_t k = 0; k < count; ++k) {
      if (idx[k] >= total) return errors::InvalidArgument("index is out of bound as with dims");
    }
    Tensor* out;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, indices.rank() == 0 ? Shape{n} : Shape{n, count}, &out));
    T* dst = out->data<T>();
    for (int64_t k = 0; k < count; ++k) {
      int64_t rest = idx[k];
      for (int64_t i = n - 1; i >= 0; --i) {
        dst[i * count + k] = static_cast<T>(rest % dims[i]);
        rest /= dims[i];
      }
    }
    return Status::OK();
  }
};

template <typename T>
struct BroadcastArgsKernel {
  static Status compute(KernelContext& c) {
    std::vector<int64_t> a, b;
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(0), &a));
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &b));
    std::vector<int64_t> out;
    GRAPHFN_RETURN_IF_ERROR(broadcast_dim_values(a, b, &out));
    Tensor& t = c.allocate_output(0);
    for (size_t d = 0; d < out.size(); ++d) t.data<T>()[d] = static_cast<T>(out[d]);
    return Status::OK();
  }
};

}  // namespace

void register_shape_index_kernels(OpRegistry& reg) {
  register_for_all_dtypes(reg, "Tile", &tile_kernel);
  register_for_all_dtypes(reg, "Split", &split_kernel);
  register_for_all_dtypes(reg, "SplitV", &split_v_kernel);
  register_for_all_dtypes(reg, "Pad", &pad_kernel);
  register_for_all_dtypes(reg, "PadV2", &pad_kernel);
  register_for_all_dtypes(reg, "MirrorPad", &pad_kernel);
  register_kernels<MirrorPadGradKernel>(reg, "MirrorPadGrad", NumericTypes{});
  register_for_all_dtypes(reg, "ReverseV2", &reverse_kernel);
  register_for_all_dtypes(reg, "Roll", &roll_kernel);
  register_for_all_dtypes(reg, "EnsureShape", &forward_kernel);
  reg.set_kernel("IdentityN", DType::kInvalid, &identity_n_kernel);
  register_kernels<ShapeNKernel>(reg, "ShapeN", TypeList<int32_t, int64_t>{});
  register_kernels<UnravelIndexKernel>(reg, "UnravelIndex", TypeList<int32_t, int64_t>{});
  register_kernels<BroadcastArgsKernel>(reg, "BroadcastArgs", TypeList<int32_t, int64_t>{});
}

}  // namespace graphfn
