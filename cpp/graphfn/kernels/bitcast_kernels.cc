// Bitcast's kernel: the output shares the input's buffer under the new dtype and the shape the
// shape function gave (the bytes are the same, only their reading changes).
#include <Eigen/Core>
#include <complex>
#include <cstdint>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

Status bitcast_compute(KernelContext& c) {
  const Tensor& in = c.input(0);
  const DType out_dtype = c.output_dtypes[0];
  const int64_t count = static_cast<int64_t>(in.bytes() / dtype_size(out_dtype));
  c.set_output(0, Tensor(out_dtype, c.output_shapes[0], in.buffer(), count));
  return Status::OK();
}

template <typename... Ts>
void register_bitcast_for(OpRegistry& reg, TypeList<Ts...>) {
  (reg.set_kernel("Bitcast", DTypeOf<Ts>::value, &bitcast_compute), ...);
}

}  // namespace

void register_bitcast_kernels(OpRegistry& reg) {
  register_bitcast_for(reg, TypeList<Eigen::bfloat16, Eigen::half, float, double, int64_t, int32_t, uint8_t, uint16_t,
                                     uint32_t, uint64_t, int8_t, int16_t, std::complex<float>, std::complex<double>>{});
}

}  // namespace graphfn
