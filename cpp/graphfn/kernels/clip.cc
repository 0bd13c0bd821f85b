// ClipByValue: out = maximum(minimum(t, hi), lo) with TF's NaN-propagating Minimum/Maximum,
// i.e. exactly what tf.clip_by_value computes (a NaN bound gives NaN; lo > hi gives lo).
#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

// Bounds are scalars (step 0) or full-size (step 1); fixing the steps at compile time keeps
// the loop vectorisable.
template <typename T, int kLoStep, int kHiStep>
void clip_loop(const T* t, const T* lo, const T* hi, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = functors::Maximum::apply(functors::Minimum::apply(t[i], hi[i * kHiStep]), lo[i * kLoStep]);
  }
}

template <typename T>
struct ClipKernel {
  static Status compute(KernelContext& c) {
    const Tensor& t = c.input(0);
    const T* lo = c.input(1).data<T>();
    const T* hi = c.input(2).data<T>();
    Tensor& out = c.allocate_output(0);
    const int64_t n = t.num_elements();
    const bool lo_full = c.input(1).rank() != 0, hi_full = c.input(2).rank() != 0;
    if (lo_full && hi_full) clip_loop<T, 1, 1>(t.data<T>(), lo, hi, out.data<T>(), n);
    if (lo_full && !hi_full) clip_loop<T, 1, 0>(t.data<T>(), lo, hi, out.data<T>(), n);
    if (!lo_full && hi_full) clip_loop<T, 0, 1>(t.data<T>(), lo, hi, out.data<T>(), n);
    if (!lo_full && !hi_full) clip_loop<T, 0, 0>(t.data<T>(), lo, hi, out.data<T>(), n);
    return Status::OK();
  }
};

}  // namespace

void register_clip_kernels(OpRegistry& reg) {
  register_kernels<ClipKernel>(reg, "ClipByValue", Concat<NumericTypes, TypeList<uint16_t>>{});  // TF: no uint32/64 kernel
}

}  // namespace graphfn
