#include "graphfn/kernels/array_util.h"

namespace graphfn {

StridedView broadcast_view(const Shape& in_shape, const Shape& out_shape) {
  StridedView v;
  v.dims = out_shape.dims();
  v.strides.assign(out_shape.rank(), 0);
  int64_t stride = 1;
  for (int i = in_shape.rank() - 1; i >= 0; --i) {
    const int o = out_shape.rank() - in_shape.rank() + i;
    if (in_shape.dim(i) != 1) v.strides[o] = stride;
    stride *= in_shape.dim(i);
  }
  return v;
}

void strided_copy(const Tensor& in, const StridedView& view, Tensor* out) {
  visit_storage(in.dtype(), [&](auto tag) {
    using E = decltype(tag);
    strided_copy(in.data<E>(), view, out->data<E>());
  });
}

void concat_blocks(const std::vector<const Tensor*>& inputs, const std::vector<int64_t>& block,
                   int64_t outer, Tensor* out) {
  visit_storage(out->dtype(), [&](auto tag) {
    using E = decltype(tag);
    E* dst = out->data<E>();
    for (int64_t o = 0; o < outer; ++o) {
      for (size_t t = 0; t < inputs.size(); ++t) {
        dst = std::copy_n(inputs[t]->data<E>() + o * block[t], block[t], dst);
      }
    }
  });
}

}  // namespace graphfn
