// CheckNumerics: fails with TF's InvalidArgumentError ("<message> : Tensor had NaN values") when
// the input holds a NaN or an infinity, else forwards the input unchanged.
#include <cmath>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

template <typename T>
struct CheckNumericsKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    const T* data = in.data<T>();
    bool nan = false, inf = false;
    for (int64_t i = 0, n = in.num_elements(); i < n && !(nan && inf); ++i) {
      nan |= std::isnan(data[i]);
      inf |= std::isinf(data[i]);
    }
    if (nan || inf) {
      const std::string* message = c.attrs.get_string("message");
      const char* what = nan && inf ? "Inf and NaN" : nan ? "NaN" : "Inf";
      return errors::InvalidArgument(message ? *message : "", " : Tensor had ", what, " values");
    }
    c.set_output(0, in);
    return Status::OK();
  }
};

}  // namespace

void register_debug_kernels(OpRegistry& reg) {
  register_kernels<CheckNumericsKernel>(reg, "CheckNumerics", TypeList<float, double>{});
}

}  // namespace graphfn
