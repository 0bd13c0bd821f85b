// One element-wise kernel for rarely used unary ops: out[i] = F::apply(in[i]), same dtype in and
// out, one plain loop (no vectorised or threaded copies per dtype, to keep compile time and size
// down where the op is not hot).
#pragma once
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {

template <typename F>
struct SerialUnary {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      const T* in = c.input(0).data<T>();
      Tensor& out = c.allocate_output(0);
      T* po = out.data<T>();
      for (int64_t i = 0; i < out.num_elements(); ++i) po[i] = F::apply(in[i]);
      return Status::OK();
    }
  };
};

}  // namespace graphfn
