// Kernels of ops/gradient_ops.cc.
#include "graphfn/ir/shape_inference.h"
#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

Status stop_gradient_kernel(KernelContext& c) {
  c.set_output(0, c.input(0));
  return Status::OK();
}

// The axes each operand of a broadcasting op was stretched along (TF's BCast): dimensions where
// only that operand is 1 (or missing), plus those where both are 1, unless the shapes are equal.
template <typename T>
struct BroadcastGradientArgsKernel {
  static Status compute(KernelContext& c) {
    std::vector<int64_t> s[2];
    for (int i = 0; i < 2; ++i) GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(c.input(i), &s[i]));
    std::vector<T> r[2];
    if (s[0] != s[1]) {
      const size_t rank = std::max(s[0].size(), s[1].size());
      for (size_t i = 0; i < rank; ++i) {
        const int64_t a = i + s[0].size() >= rank ? s[0][i + s[0].size() - rank] : 1;
        const int64_t b = i + s[1].size() >= rank ? s[1][i + s[1].size() - rank] : 1;
        if (a == 1) r[0].push_back(static_cast<T>(i));
        if (b == 1) r[1].push_back(static_cast<T>(i));
        if (a != b && a != 1 && b != 1) {
          return errors::InvalidArgument("Incompatible shapes: ", Shape(s[0]), " vs. ", Shape(s[1]));
        }
      }
    }
    for (int i = 0; i < 2; ++i) {
      Tensor* out = nullptr;
      GRAPHFN_RETURN_IF_ERROR(c.allocate_output(i, Shape{static_cast<int64_t>(r[i].size())}, &out));
      std::copy(r[i].begin(), r[i].end(), out->data<T>());
    }
    return Status::OK();
  }
};

Status broadcast_to_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.shape() == c.output_shapes[0]) {
    c.set_output(0, x);
    return Status::OK();
  }
  Tensor* out = nullptr;
  GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
  // The binary broadcasting loop with x as both operands: each element is x's, broadcast.
  visit_storage(x.dtype(), [&](auto e) {
    using E = decltype(e);
    broadcast_binary_loop<E, E>(x, x, *out, [](const E& a, const E&) { return a; });
  });
  return Status::OK();
}

}  // namespace

void register_gradient_kernels(OpRegistry& reg) {
  register_for_all_dtypes(reg, "StopGradient", &stop_gradient_kernel);
  register_kernels<BroadcastGradientArgsKernel>(reg, "BroadcastGradientArgs", TypeList<int32_t, int64_t>{});
  register_for_all_dtypes(reg, "BroadcastTo", &broadcast_to_kernel);
}

}  // namespace graphfn
