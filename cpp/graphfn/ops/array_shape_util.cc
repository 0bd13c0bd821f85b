#include "graphfn/ops/array_shape_util.h"

namespace graphfn {

Status int_values(const Tensor& t, std::vector<int64_t>* out) {
  out->resize(t.num_elements());
  const bool ok = visit_dtype(t.dtype(), IntTypes{}, [&](auto tag) {
    using T = decltype(tag);
    const T* p = t.data<T>();
    for (int64_t i = 0; i < t.num_elements(); ++i) (*out)[i] = static_cast<int64_t>(p[i]);
  });
  if (!ok) return errors::InvalidArgument("expected an integer tensor, got ", dtype_name(t.dtype()));
  return Status::OK();
}

int64_t first_int(const Tensor& t) {
  int64_t v = 0;
  visit_dtype(t.dtype(), IntTypes{}, [&](auto tag) { v = static_cast<int64_t>(*t.data<decltype(tag)>()); });
  return v;
}

Status check_output_size(const Shape& shape, DType dt) {
  if (!shape.fully_defined()) return Status::OK();
  // Multiply left to right in unsigned arithmetic, as Shape::num_elements will (so a zero dim
  // after an overflowing prefix is still rejected); past 2**63 - 1 is TF's "would have more than".
  uint64_t n = 1;
  bool too_big = false;
  for (int64_t d : shape.dims()) {
    const uint64_t ud = static_cast<uint64_t>(d);
    if (ud != 0 && n > static_cast<uint64_t>(INT64_MAX) / ud) too_big = true;
    n *= ud;
  }
  if (too_big) return errors::InvalidArgument("Shape ", shape, " would have more than 2**63 - 1 elements");
  if (n > static_cast<uint64_t>(kMaxElements)) return oom_error(dt, shape);
  return Status::OK();
}

Shape unknown_dims(int64_t rank) {
  if (rank < 0) return Shape::unknown_rank();
  return Shape(std::vector<int64_t>(static_cast<size_t>(rank), Shape::kUnknownDim));
}

int64_t static_length(const Shape& vector_shape) {
  if (!vector_shape.known_rank() || vector_shape.rank() != 1) return -1;
  return vector_shape.dim(0);
}

bool merge_shapes(const Shape& a, const Shape& b, Shape* out) {
  if (!a.known_rank()) {
    *out = b;
    return true;
  }
  if (!b.known_rank()) {
    *out = a;
    return true;
  }
  if (a.rank() != b.rank()) return false;
  std::vector<int64_t> dims(a.dims());
  for (int i = 0; i < a.rank(); ++i) {
    const int64_t d = b.dim(i);
    if (d < 0) continue;
    if (dims[i] >= 0 && dims[i] != d) return false;
    dims[i] = d;
  }
  *out = Shape(std::move(dims));
  return true;
}

int64_t dims_product(const Shape& s, int begin, int end) {
  int64_t n = 1;
  for (int i = begin; i < end; ++i) n *= s.dim(i);
  return n;
}

}  // namespace graphfn
