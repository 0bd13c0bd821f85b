// GatherV2: out[b, o, i, k] = params[b, o, indices[b, i], k], with params flattened to
// [batch, outer, axis dim, inner] and indices to [batch, index count]. Each gathered row is one
// block copy of `inner` elements.
#include <string>

#include "graphfn/kernels/array_util.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

// TF's text for a bad index: "indices[1,0] = 2 is not in [0, 2)" ("indices = 3 ..." for a scalar).
Status bad_index(const Shape& indices_shape, int64_t flat, int64_t value, int64_t limit) {
  std::string where;
  if (indices_shape.rank() > 0) {
    std::vector<int64_t> pos(indices_shape.rank());
    for (int d = indices_shape.rank() - 1; d >= 0; --d) {
      pos[d] = flat % indices_shape.dim(d);
      flat /= indices_shape.dim(d);
    }
    where = "[";
    for (size_t d = 0; d < pos.size(); ++d) where += (d ? "," : "") + std::to_string(pos[d]);
    where += "]";
  }
  return errors::InvalidArgument("indices", where, " = ", value, " is not in [0, ", limit, ")");
}

Status gather_kernel(KernelContext& c) {
  const Tensor& params = c.input(0);
  const Tensor& indices_t = c.input(1);
  const int rank = params.rank();
  int64_t axis_value = first_int(c.input(2));
  const int axis = static_cast<int>(axis_value < 0 ? axis_value + rank : axis_value);
  int64_t batch_dims = c.attrs.get_int("batch_dims", 0);
  if (batch_dims < 0) batch_dims += indices_t.rank();
  const int bd = static_cast<int>(batch_dims);

  std::vector<int64_t> indices;
  GRAPHFN_RETURN_IF_ERROR(int_values(indices_t, &indices));
  const int64_t limit = params.dim(axis);
  for (size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] < 0 || indices[i] >= limit) return bad_index(indices_t.shape(), i, indices[i], limit);
  }

  const int64_t batch = dims_product(params.shape(), 0, bd);
  const int64_t outer = dims_product(params.shape(), bd, axis);
  const int64_t inner = dims_product(params.shape(), axis + 1, rank);
  const int64_t count = dims_product(indices_t.shape(), bd, indices_t.rank());
  Tensor* out;
  GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
  if (out->num_elements() == 0) return Status::OK();
  visit_storage(params.dtype(), [&](auto tag) {
    using E = decltype(tag);
    const E* src = params.data<E>();
    E* dst = out->data<E>();
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t* idx = indices.data() + b * count;
      for (int64_t o = 0; o < outer; ++o) {
        const E* rows = src + (b * outer + o) * limit * inner;
        for (int64_t i = 0; i < count; ++i) dst = std::copy_n(rows + idx[i] * inner, inner, dst);
      }
    }
  });
  return Status::OK();
}

}  // namespace

void register_gather_kernels(OpRegistry& reg) { register_for_all_dtypes(reg, "GatherV2", &gather_kernel); }

}  // namespace graphfn
