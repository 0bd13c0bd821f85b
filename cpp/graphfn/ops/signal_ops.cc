// The FFT ops of tf.signal: FFT/IFFT (1-3 D, complex -> complex), RFFT (real -> half spectrum)
// and IRFFT (half spectrum -> real), each in 1, 2 and 3 D. Names, attrs and errors are TF's.
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status check_fft_rank(const Shape& in, int fft_rank) {
  if (in.known_rank() && in.rank() < fft_rank) {
    return errors::InvalidArgument("Input must have rank of at least ", fft_rank, " but got: ", in);
  }
  return Status::OK();
}

template <int kRank>
Status complex_fft_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_fft_rank(c.input_shape(0), kRank));
  c.set_output(0, c.input_dtype(0), c.input_shape(0));
  return Status::OK();
}

// RFFT*/IRFFT*: the innermost kRank dims become fft_length (the last one fft_length/2+1 for RFFT).
template <int kRank, bool kForward>
Status real_fft_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  GRAPHFN_RETURN_IF_ERROR(check_fft_rank(in, kRank));
  const Shape& len_shape = c.input_shape(1);
  if (len_shape.known_rank() && (len_shape.rank() != 1 || (len_shape.dim(0) >= 0 && len_shape.dim(0) != kRank))) {
    return errors::InvalidArgument("fft_length must have shape [", kRank, "]");
  }
  const DType out_dtype = kForward ? c.type_attr("Tcomplex") : c.type_attr("Treal");
  if (!in.known_rank()) {
    c.set_output(0, out_dtype, Shape::unknown_rank());
    return Status::OK();
  }
  Shape out = in;
  const Tensor* len_t = c.input_value(1);
  std::vector<int64_t> lengths;
  if (len_t) GRAPHFN_RETURN_IF_ERROR(int_values(*len_t, &lengths));
  for (int i = 0; i < kRank; ++i) {
    const int axis = in.rank() - kRank + i;
    if (!len_t) {
      out.set_dim(axis, Shape::kUnknownDim);
      continue;
    }
    if (lengths[i] < 0) return errors::InvalidArgument("fft_length[", i, "] must >= 0, but got: ", lengths[i]);
    out.set_dim(axis, kForward && i == kRank - 1 ? lengths[i] / 2 + 1 : lengths[i]);
  }
  c.set_output(0, out_dtype, std::move(out));
  return Status::OK();
}

}  // namespace

void register_signal_ops(OpRegistry& reg) {
  const std::string suffix[] = {"", "2D", "3D"};
  Status (*complex_shapes[])(InferenceContext&) = {complex_fft_shape<1>, complex_fft_shape<2>, complex_fft_shape<3>};
  Status (*forward_shapes[])(InferenceContext&) = {real_fft_shape<1, true>, real_fft_shape<2, true>,
                                                   real_fft_shape<3, true>};
  Status (*inverse_shapes[])(InferenceContext&) = {real_fft_shape<1, false>, real_fft_shape<2, false>,
                                                   real_fft_shape<3, false>};
  for (int r = 0; r < 3; ++r) {
    for (const char* prefix : {"FFT", "IFFT"}) {
      reg.op(prefix + suffix[r]).input("input: Tcomplex").output("output: Tcomplex")
          .attr("Tcomplex: {complex64, complex128} = DT_COMPLEX64").kernel_type_attr("Tcomplex")
          .shape_fn(complex_shapes[r], true);
    }
    reg.op("RFFT" + suffix[r]).input("input: Treal").input("fft_length: int32").output("output: Tcomplex")
        .attr("Treal: {float, double} = DT_FLOAT").attr("Tcomplex: {complex64, complex128} = DT_COMPLEX64")
        .kernel_type_attr("Tcomplex").shape_fn(forward_shapes[r], true);
    reg.op("IRFFT" + suffix[r]).input("input: Tcomplex").input("fft_length: int32").output("output: Treal")
        .attr("Treal: {float, double} = DT_FLOAT").attr("Tcomplex: {complex64, complex128} = DT_COMPLEX64")
        .kernel_type_attr("Tcomplex").shape_fn(inverse_shapes[r], true);
  }
}

}  // namespace graphfn
