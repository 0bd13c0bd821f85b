// Kernel of ops/betainc_ops.cc on Eigen's incomplete beta function (the one TF's kernel uses).
// The shape function has checked that the non-scalar inputs share one shape.
#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

template <typename T>
struct BetaincKernel {
  static Status compute(KernelContext& c) {
    const Tensor* in[3] = {&c.input(0), &c.input(1), &c.input(2)};
    Shape out_shape{};
    for (const Tensor* t : in) {
      if (t->rank() > 0) out_shape = t->shape();
    }
    Tensor* out = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, out_shape, &out));
    const T* p[3];
    bool scalar[3];
    for (int i = 0; i < 3; ++i) {
      p[i] = in[i]->data<T>();
      scalar[i] = in[i]->rank() == 0;
    }
    T* po = out->data<T>();
    const int64_t n = out->num_elements();
    for (int64_t k = 0; k < n; ++k) {
      po[k] = Eigen::numext::betainc(p[0][scalar[0] ? 0 : k], p[1][scalar[1] ? 0 : k], p[2][scalar[2] ? 0 : k]);
    }
    return Status::OK();
  }
};

}  // namespace

void register_betainc_kernels(OpRegistry& reg) {
  register_kernels<BetaincKernel>(reg, "Betainc", TypeList<float, double>{});
}

}  // namespace graphfn
