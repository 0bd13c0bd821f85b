// Bitcast's kernel: the output shares the input's buffer under the new dtype (the bytes are the
// same, only their reading changes). The shape is worked out again from the input's: in a graph
// the shape function may have seen an unknown last dimension.
#include <Eigen/Core>
#include <complex>
#include <cstdint>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

Status bitcast_compute(KernelContext& c) {
  const Tensor& in = c.input(0);
  const DType out_dtype = c.output_dtypes[0];
  const int64_t in_size = static_cast<int64_t>(dtype_size(in.dtype()));
  const int64_t out_size = static_cast<int64_t>(dtype_size(out_dtype));
  Shape shape = in.shape();
  if (in_size > out_size) {
    shape.add_dim(in_size / out_size);
  } else if (in_size < out_size) {
    if (shape.rank() == 0 || shape.dim(shape.rank() - 1) != out_size / in_size) {
      return errors::InvalidArgument("Cannot bitcast from ", static_cast<int>(in.dtype()), " to ",
                                     static_cast<int>(out_dtype));
    }
    shape.remove_dim(shape.rank() - 1);
  }
  const int64_t count = static_cast<int64_t>(in.bytes() / out_size);
  c.set_output(0, Tensor(out_dtype, std::move(shape), in.buffer(), count));
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
