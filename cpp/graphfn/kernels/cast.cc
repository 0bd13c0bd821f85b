// Cast: element-wise dtype conversion between every pair of numeric/bool dtypes.
#include <limits>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

using CastableTypes = TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool>;

template <typename Src, typename Dst>
Dst cast_one(Src v) {
  if constexpr (std::is_same_v<Dst, bool>) {
    return v != Src(0);
  } else if constexpr (std::is_floating_point_v<Src> && std::is_integral_v<Dst>) {
    // Out-of-range float -> int is UB in C++; saturate instead (NaN -> 0).
    if (!(v == v)) return 0;
    if (v <= static_cast<Src>(std::numeric_limits<Dst>::lowest())) return std::numeric_limits<Dst>::lowest();
    if (v >= static_cast<Src>(std::numeric_limits<Dst>::max())) return std::numeric_limits<Dst>::max();
    return static_cast<Dst>(v);
  } else {
    return static_cast<Dst>(v);
  }
}

template <typename Src>
struct CastKernel {
  static Status compute(KernelContext& c) {
    const DType dst = c.type_attr("DstT");
    const Tensor& x = c.input(0);
    if (dst == x.dtype()) {
      c.set_output(0, x);
      return Status::OK();
    }
    Tensor& y = c.allocate_output(0);
    const Src* in = x.data<Src>();
    const bool ok = visit_dtype(dst, CastableTypes{}, [&](auto tag) {
      using Dst = decltype(tag);
      Dst* out = y.data<Dst>();
      for (int64_t i = 0; i < x.num_elements(); ++i) out[i] = cast_one<Src, Dst>(in[i]);
    });
    if (!ok) {
      return errors::Unimplemented("Cast ", dtype_tf_string(x.dtype()), " to ", dtype_tf_string(dst),
                                   " is not supported");
    }
    return Status::OK();
  }
};

Status cast_string(KernelContext& c) {
  const DType dst = c.type_attr("DstT");
  if (dst == DType::kString) {
    c.set_output(0, c.input(0));
    return Status::OK();
  }
  return errors::Unimplemented("Cast string to ", dtype_tf_string(dst), " is not supported");
}

}  // namespace

void register_cast_kernels(OpRegistry& reg) {
  register_kernels<CastKernel>(reg, "Cast", CastableTypes{});
  reg.set_kernel("Cast", DType::kString, &cast_string);
}

}  // namespace graphfn
