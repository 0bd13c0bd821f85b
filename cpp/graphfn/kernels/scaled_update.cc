// Compiled with -ffp-contract=off (cpp/CMakeLists.txt): c - s * d must round the product before
// the subtraction, as TF's Mul and Sub kernels do, not be contracted into one fused multiply-add.
#include "graphfn/kernels/scaled_update.h"

#include <vector>

#include "graphfn/kernels/eager.h"
#include "graphfn/kernels/parallel_loops.h"

namespace graphfn {
namespace {

template <typename T>
void fused(const Tensor& current, const Tensor& delta, T scale, bool add, Tensor* out) {
  const T* c = current.data<T>();
  const T* d = delta.data<T>();
  T* o = out->data<T>();
  parallel_elementwise(o, out->num_elements(), kCheapElementsPerShard, [&](int64_t begin, int64_t end) {
    if (add) {
      for (int64_t i = begin; i < end; ++i) o[i] = c[i] + scale * d[i];
    } else {
      for (int64_t i = begin; i < end; ++i) o[i] = c[i] - scale * d[i];
    }
  });
}

}  // namespace

Status scaled_update(const Tensor& current, const Tensor& delta, const Tensor& scale, bool add, Tensor* next) {
  const DType dt = current.dtype();
  if (delta.dtype() == dt && scale.dtype() == dt && scale.num_elements() == 1 && current.shape() == delta.shape() &&
      (dt == DType::kFloat32 || dt == DType::kFloat64)) {
    Tensor out(dt, current.shape());
    if (dt == DType::kFloat32) {
      fused<float>(current, delta, scale.data<float>()[0], add, &out);
    } else {
      fused<double>(current, delta, scale.data<double>()[0], add, &out);
    }
    *next = std::move(out);
    return Status::OK();
  }
  std::vector<Tensor> product, updated;
  GRAPHFN_RETURN_IF_ERROR(execute_eager("Mul", {scale, delta}, AttrMap(), &product));
  GRAPHFN_RETURN_IF_ERROR(execute_eager(add ? "AddV2" : "Sub", {current, product[0]}, AttrMap(), &updated));
  *next = std::move(updated[0]);
  return Status::OK();
}

}  // namespace graphfn
