#include "graphfn/data/element_ops.h"

#include <cstring>

#include "graphfn/core/resource.h"

namespace graphfn {
namespace data {
namespace {

// Copies `count` elements of src starting at src_at into dst starting at dst_at (same dtype).
void copy_elements(const Tensor& src, int64_t src_at, const Tensor& dst, int64_t dst_at, int64_t count) {
  if (count <= 0) return;
  if (src.dtype() == DType::kString) {
    const std::string* from = src.data<std::string>() + src_at;
    std::string* to = dst.data<std::string>() + dst_at;
    for (int64_t i = 0; i < count; ++i) to[i] = from[i];
  } else if (src.dtype() == DType::kResource) {
    using Handle = std::shared_ptr<Resource>;
    const Handle* from = src.data<Handle>() + src_at;
    Handle* to = dst.data<Handle>() + dst_at;
    for (int64_t i = 0; i < count; ++i) to[i] = from[i];
  } else {
    const size_t size = dtype_size(src.dtype());
    std::memcpy(static_cast<char*>(dst.raw_data()) + dst_at * size,
                static_cast<const char*>(src.raw_data()) + src_at * size, static_cast<size_t>(count) * size);
  }
}

// Fills n elements of dst from dst_at with the scalar `value`.
void fill_elements(const Tensor& value, const Tensor& dst, int64_t dst_at, int64_t n) {
  for (int64_t i = 0; i < n; ++i) copy_elements(value, 0, dst, dst_at + i, 1);
}

std::string dims_text(const Shape& s) {
  std::string out = "[";
  for (int i = 0; i < s.rank(); ++i) out += (i ? "," : "") + std::to_string(s.dim(i));
  return out + "]";
}

}  // namespace

Tensor slice_row(const Tensor& t, int64_t index) {
  Shape row_shape = t.shape();
  row_shape.remove_dim(0);
  Tensor row(t.dtype(), row_shape);
  const int64_t n = row.num_elements();
  copy_elements(t, index * n, row, 0, n);
  return row;
}

Status stack_tensors(const std::vector<const Tensor*>& parts, Tensor* out) {
  const Tensor& first = *parts[0];
  for (const Tensor* p : parts) {
    if (p->shape() != first.shape()) {
      return errors::InvalidArgument(
          "Cannot add tensor to the batch: number of elements does not match. Shapes are: [tensor]: ",
          dims_text(first.shape()), ", [batch]: ", dims_text(p->shape()));
    }
  }
  Shape shape = first.shape();
  shape.insert_dim(0, static_cast<int64_t>(parts.size()));
  GRAPHFN_RETURN_IF_ERROR(Tensor::make(first.dtype(), shape, out));
  const int64_t n = first.num_elements();
  for (size_t i = 0; i < parts.size(); ++i) copy_elements(*parts[i], 0, *out, static_cast<int64_t>(i) * n, n);
  return Status::OK();
}

Status pad_and_stack(const std::vector<const Tensor*>& parts, const Shape& shape, const Tensor& padding, Tensor* out) {
  const int rank = parts[0]->rank();
  if (shape.rank() != rank) {
    return errors::InvalidArgument("The padded shape ", dims_text(shape), " is not compatible with the shape ",
                                   dims_text(parts[0]->shape()), " of an element.");
  }
  Shape padded = shape;
  for (int d = 0; d < rank; ++d) {
    int64_t largest = 0;
    for (const Tensor* p : parts) {
      if (p->rank() != rank) {
        return errors::InvalidArgument("All elements in a batch must have the same rank as the padded shape for "
                                       "component0: expected rank ", rank, " but got element with rank ", p->rank());
      }
      largest = std::max(largest, p->dim(d));
    }
    if (shape.dim(d) < 0) {
      padded.set_dim(d, largest);
    } else if (largest > shape.dim(d)) {
      return Status(Code::kDataLoss, "Attempted to pad to a smaller size than the input element.");  // TF's code
    }
  }
  Shape batch_shape = padded;
  batch_shape.insert_dim(0, static_cast<int64_t>(parts.size()));
  GRAPHFN_RETURN_IF_ERROR(Tensor::make(parts[0]->dtype(), batch_shape, out));
  const int64_t per_item = padded.num_elements();
  fill_elements(padding, *out, 0, out->num_elements());
  for (size_t i = 0; i < parts.size(); ++i) {
    const Tensor& p = *parts[i];
    if (p.num_elements() == 0) continue;
    if (rank == 0) {
      copy_elements(p, 0, *out, static_cast<int64_t>(i), 1);
      continue;
    }
    // Copy the part's innermost rows, one run each, walking its outer indices like an odometer.
    const int64_t run = p.dim(rank - 1);
    std::vector<int64_t> index(static_cast<size_t>(rank), 0);
    for (int64_t src = 0; src < p.num_elements(); src += run) {
      int64_t dst = 0;
      for (int d = 0; d < rank; ++d) dst = dst * padded.dim(d) + index[static_cast<size_t>(d)];
      copy_elements(p, src, *out, static_cast<int64_t>(i) * per_item + dst, run);
      for (int d = rank - 2; d >= 0; --d) {
        if (++index[static_cast<size_t>(d)] < p.dim(d)) break;
        index[static_cast<size_t>(d)] = 0;
      }
    }
  }
  return Status::OK();
}

}  // namespace data
}  // namespace graphfn
