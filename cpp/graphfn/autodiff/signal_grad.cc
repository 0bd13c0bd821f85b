// Gradients of the FFT ops (ops/signal_ops.cc), with TF's convention for complex values (the
// gradient of a real loss L with respect to z is dL/dRe z + i dL/dIm z). Each transform is
// linear, so its gradient is the adjoint transform, written with conjugates to need no sizes:
//   FFT:   N * ifft(g) = conj(fft(conj(g)))      IFFT: fft(g) / N = conj(ifft(conj(g)))
//   RFFT:  real(fft(conj(g zero-padded to the full spectrum))), zero-padded to the input's shape
//   IRFFT: rfft(g) * [1, 2, ..., 2, 1 (even) or 2 (odd)] / N, as TF's
// TF 2.21 registers no gradient for RFFT3D and IRFFT3D; neither does graphfn.
#include <complex>
#include <string>

#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::x;
using Grads = std::vector<GradValue>;

std::string fft_op_name(const char* base, int fft_rank) {
  return std::string(base) + (fft_rank == 1 ? "" : fft_rank == 2 ? "2D" : "3D");
}

template <int kRank, bool kInverse>
Status complex_fft_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue flipped = b.op(fft_op_name(kInverse ? "IFFT" : "FFT", kRank), {b.op("Conj", {dy(in)})});
  (*g)[0] = b.op("Conj", {flipped});
  return b.status();
}

// Pads `v` with zeros after its last kRank dims up to `target` (the dims it should have there).
GradValue pad_inner(GradBuilder& b, const GradValue& v, const Shape& v_shape, const std::vector<int64_t>& target) {
  const int rank = v_shape.rank();
  const int first = rank - static_cast<int>(target.size());
  Tensor paddings(DType::kInt32, Shape{rank, 2});
  int32_t* p = paddings.data<int32_t>();
  bool any = false;
  for (int i = 0; i < rank; ++i) {
    p[2 * i] = 0;
    p[2 * i + 1] = i < first ? 0 : static_cast<int32_t>(target[i - first] - v_shape.dim(i));
    any = any || p[2 * i + 1] != 0;
  }
  return any ? b.op("Pad", {v, b.constant(paddings)}) : v;
}

// The input's dims on the fft axes; the transform read only their first fft_length entries.
Status inner_dims(GradBuilder& b, const GradValue& v, int fft_rank, std::vector<int64_t>* dims) {
  const Shape s = b.static_shape(v);
  if (!s.known_rank()) return errors::InvalidArgument("The gradient of an FFT op needs its input's rank");
  for (int i = s.rank() - fft_rank; i < s.rank(); ++i) {
    if (s.dim(i) < 0) return errors::InvalidArgument("The gradient of an FFT op needs its input's inner dims");
    dims->push_back(s.dim(i));
  }
  return Status::OK();
}

template <int kRank>
Status rfft_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  std::vector<int64_t> lengths, input_dims;
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, in.inputs[1], "fft_length", &lengths));
  GRAPHFN_RETURN_IF_ERROR(inner_dims(b, x(in), kRank, &input_dims));
  Shape spectrum_shape = b.static_shape(x(in));
  for (int i = 0; i < kRank; ++i) spectrum_shape.set_dim(spectrum_shape.rank() - kRank + i, lengths[i]);
  Shape half_shape = spectrum_shape;
  half_shape.set_dim(half_shape.rank() - 1, lengths[kRank - 1] / 2 + 1);
  const GradValue full = pad_inner(b, b.op("Conj", {dy(in)}), half_shape, lengths);
  const GradValue real = b.op("Real", {b.op(fft_op_name("FFT", kRank), {full})},
                              grad::attrs({{"Tout", real_dtype(b.dtype(full))}}));
  (*g)[0] = pad_inner(b, real, spectrum_shape, input_dims);
  return b.status();
}

template <typename C>
Tensor irfft_grad_mask(int64_t n, int64_t total) {
  const int64_t half = n / 2 + 1;
  Tensor mask(DTypeOf<C>::value, Shape{half});
  C* m = mask.data<C>();
  for (int64_t k = 0; k < half; ++k) {
    const bool single = k == 0 || (n % 2 == 0 && k == n / 2);
    m[k] = C((single ? 1.0 : 2.0) / static_cast<double>(total), 0);
  }
  return mask;
}

template <int kRank>
Status irfft_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  std::vector<int64_t> lengths, input_dims;
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, in.inputs[1], "fft_length", &lengths));
  GRAPHFN_RETURN_IF_ERROR(inner_dims(b, x(in), kRank, &input_dims));
  const DType complex = b.dtype(x(in));
  int64_t total = 1;
  for (int64_t l : lengths) total *= l;
  const int64_t n = lengths[kRank - 1];
  const Tensor mask = complex == DType::kComplex128 ? irfft_grad_mask<std::complex<double>>(n, total)
                                                    : irfft_grad_mask<std::complex<float>>(n, total);
  const GradValue spectrum = b.op(fft_op_name("RFFT", kRank), {dy(in), in.inputs[1]},
                                  grad::attrs({{"Treal", real_dtype(complex)}, {"Tcomplex", complex}}));
  const GradValue scaled = b.op("Mul", {spectrum, b.constant(mask)});
  Shape half_shape = b.static_shape(x(in));
  for (int i = 0; i < kRank; ++i) half_shape.set_dim(half_shape.rank() - kRank + i, lengths[i]);
  half_shape.set_dim(half_shape.rank() - 1, n / 2 + 1);
  (*g)[0] = pad_inner(b, scaled, half_shape, input_dims);
  return b.status();
}

}  // namespace

void register_signal_gradients(OpRegistry& reg) {
  reg.set_gradient("FFT", complex_fft_grad<1, false>);
  reg.set_gradient("FFT2D", complex_fft_grad<2, false>);
  reg.set_gradient("FFT3D", complex_fft_grad<3, false>);
  reg.set_gradient("IFFT", complex_fft_grad<1, true>);
  reg.set_gradient("IFFT2D", complex_fft_grad<2, true>);
  reg.set_gradient("IFFT3D", complex_fft_grad<3, true>);
  reg.set_gradient("RFFT", rfft_grad<1>);
  reg.set_gradient("RFFT2D", rfft_grad<2>);
  reg.set_gradient("IRFFT", irfft_grad<1>);
  reg.set_gradient("IRFFT2D", irfft_grad<2>);
}

}  // namespace graphfn
