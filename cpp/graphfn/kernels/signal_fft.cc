// Kernels of ops/signal_ops.cc. The transforms are Eigen's FFT module (unsupported/Eigen/FFT,
// its kissfft backend): 1-D transforms along one axis at a time, the real ones on the innermost
// axis, lines spread over graphfn's thread pool. Forward transforms are unscaled, inverse ones divide by the length, as TF's.
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include <unsupported/Eigen/FFT>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

// One FFT object per thread: it caches twiddle plans by length and owns scratch buffers, so it
// cannot be shared between threads, and rebuilding it per call would recompute the twiddles.
template <typename R>
Eigen::FFT<R>& thread_fft() {
  thread_local Eigen::FFT<R> fft(Eigen::default_fft_impl<R>(), Eigen::FFT<R>::HalfSpectrum);
  return fft;
}

// kissfft handles a prime factor p of the length with an O(p^2) butterfly: a length of 10^6 + 3
// (prime) would take hours. Lengths with a prime factor above this go through Bluestein's
// algorithm instead: the transform as a convolution with a chirp, done by power-of-two FFTs.
constexpr int64_t kLargestKissPrime = 509;

int64_t largest_prime_factor(int64_t n) {
  int64_t largest = 1;
  for (int64_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      largest = p;
      n /= p;
    }
  }
  return n > 1 ? n : largest;
}

bool use_bluestein(int64_t n) { return n > kLargestKissPrime && largest_prime_factor(n) > kLargestKissPrime; }

// The unscaled DFT of the n points at src (exponent sign -1 forward, +1 inverse) into dst, by
// Bluestein: X_k = w_k * sum_j (x_j w_j) conj(w_{k-j}) with w_j = exp(-+i pi j^2 / n), the sum a
// circular convolution of length m >= 2n - 1 (a power of two). The chirp is computed in double
// from j^2 mod 2n, exact in integers, so long lengths keep their accuracy.
template <typename R>
void bluestein(Eigen::FFT<R>& fft, std::complex<R>* dst, const std::complex<R>* src, int64_t n, bool inverse) {
  int64_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<std::complex<R>> chirp(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    const int64_t q = static_cast<int64_t>((static_cast<unsigned __int128>(j) * j) % (2 * static_cast<uint64_t>(n)));
    const double angle = sign * M_PI * static_cast<double>(q) / static_cast<double>(n);
    chirp[j] = std::complex<R>(static_cast<R>(std::cos(angle)), static_cast<R>(std::sin(angle)));
  }
  std::vector<std::complex<R>> a(static_cast<size_t>(m)), b(static_cast<size_t>(m)), fa(static_cast<size_t>(m)),
      fb(static_cast<size_t>(m));
  for (int64_t j = 0; j < n; ++j) a[j] = src[j] * chirp[j];
  b[0] = std::conj(chirp[0]);
  for (int64_t j = 1; j < n; ++j) b[j] = b[m - j] = std::conj(chirp[j]);
  fft.fwd(fa.data(), a.data(), m);
  fft.fwd(fb.data(), b.data(), m);
  for (int64_t k = 0; k < m; ++k) fa[k] *= fb[k];
  fft.inv(a.data(), fa.data(), m);  // Eigen's inverse divides by m
  for (int64_t k = 0; k < n; ++k) dst[k] = a[k] * chirp[k];
}

// One complex line: dst = the unscaled forward DFT of src, or the inverse divided by n (as
// Eigen's fwd/inv).
template <typename R>
void complex_transform(Eigen::FFT<R>& fft, std::complex<R>* dst, const std::complex<R>* src, int64_t n, bool inverse) {
  if (!use_bluestein(n)) {
    if (inverse) {
      fft.inv(dst, src, n);
    } else {
      fft.fwd(dst, src, n);
    }
    return;
  }
  bluestein(fft, dst, src, n, inverse);
  if (inverse) {
    for (int64_t k = 0; k < n; ++k) dst[k] /= static_cast<R>(n);
  }
}

// Real input, the n / 2 + 1 terms of the half spectrum out.
template <typename R>
void real_forward(Eigen::FFT<R>& fft, std::complex<R>* dst, const R* src, int64_t n) {
  if (!use_bluestein(n)) {
    fft.fwd(dst, src, n);
    return;
  }
  std::vector<std::complex<R>> line(src, src + n), full(static_cast<size_t>(n));
  bluestein(fft, full.data(), line.data(), n, false);
  std::copy(full.begin(), full.begin() + n / 2 + 1, dst);
}

// The n / 2 + 1 terms of a half spectrum in, n real samples out (divided by n).
template <typename R>
void real_inverse(Eigen::FFT<R>& fft, R* dst, const std::complex<R>* src, int64_t n) {
  if (!use_bluestein(n)) {
    fft.inv(dst, src, n);
    return;
  }
  std::vector<std::complex<R>> full(static_cast<size_t>(n)), out(static_cast<size_t>(n));
  std::copy(src, src + n / 2 + 1, full.begin());
  full[0] = std::complex<R>(src[0].real(), 0);  // the DC and Nyquist terms' imaginary parts are ignored
  if (n % 2 == 0) full[n / 2] = std::complex<R>(src[n / 2].real(), 0);
  for (int64_t k = n / 2 + 1; k < n; ++k) full[k] = std::conj(full[n - k]);
  bluestein(fft, out.data(), full.data(), n, true);
  for (int64_t k = 0; k < n; ++k) dst[k] = out[k].real() / static_cast<R>(n);
}

// Lines of at least this many samples in all go to one shard of the thread pool.
constexpr int64_t kSamplesPerShard = 1 << 15;

int64_t lines_per_shard(int64_t line_length) { return std::max<int64_t>(1, kSamplesPerShard / std::max<int64_t>(1, line_length)); }

// Transforms every line of `data` (shape `dims`, row-major) along `axis` in place.
template <typename R>
void fft_along_axis(std::complex<R>* data, const std::vector<int64_t>& dims, int axis, bool inverse) {
  const int64_t n = dims[axis];
  if (n <= 1) return;  // a length-1 transform is the identity
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= dims[i];
  for (size_t i = axis + 1; i < dims.size(); ++i) inner *= dims[i];
  parallel_for(outer * inner, lines_per_shard(n), [&](int64_t first, int64_t last) {
    Eigen::FFT<R>& fft = thread_fft<R>();
    std::vector<std::complex<R>> line(n), result(n);
    for (int64_t l = first; l < last; ++l) {
      std::complex<R>* base = data + (l / inner) * n * inner + l % inner;
      for (int64_t j = 0; j < n; ++j) line[j] = base[j * inner];
      complex_transform(fft, result.data(), line.data(), n, inverse);
      for (int64_t j = 0; j < n; ++j) base[j * inner] = result[j];
    }
  });
}

std::vector<int64_t> dims_of(const Shape& s) { return std::vector<int64_t>(s.dims().begin(), s.dims().end()); }

// Copies the leading `to` block of `from` (a row-major array of shape `from_dims`, each dim at
// least as large) into `dst`; both have the same rank.
template <typename T>
void copy_block(const T* src, const std::vector<int64_t>& from_dims, T* dst, const std::vector<int64_t>& to_dims) {
  const int rank = static_cast<int>(to_dims.size());
  int64_t total = 1;
  for (int64_t d : to_dims) total *= d;
  if (total == 0) return;
  if (rank == 0) {
    dst[0] = src[0];
    return;
  }
  const int64_t row = to_dims[rank - 1];
  std::vector<int64_t> index(rank, 0);
  for (int64_t done = 0; done < total; done += row) {
    int64_t offset = 0;
    for (int i = 0; i < rank; ++i) offset = offset * from_dims[i] + index[i];
    std::copy(src + offset, src + offset + row, dst + done);
    for (int i = rank - 2; i >= 0; --i) {  // next row: odometer over the outer dims
      if (++index[i] < to_dims[i]) break;
      index[i] = 0;
    }
  }
}

Status read_fft_length(const KernelContext& c, int fft_rank, std::vector<int64_t>* lengths) {
  const Tensor& t = c.input(1);
  if (t.shape().rank() != 1 || t.shape().dim(0) != fft_rank) {
    return errors::InvalidArgument("fft_length must have shape [", fft_rank, "]");
  }
  GRAPHFN_RETURN_IF_ERROR(int_values(t, lengths));
  for (int i = 0; i < fft_rank; ++i) {
    if ((*lengths)[i] < 0) return errors::InvalidArgument("fft_length[", i, "] must >= 0, but got: ", (*lengths)[i]);
  }
  return Status::OK();
}

Status check_rank(const Shape& in, int fft_rank) {
  if (in.rank() < fft_rank) {
    return errors::InvalidArgument("Input must have rank of at least ", fft_rank, " but got: ", in);
  }
  return Status::OK();
}

template <int kRank, bool kInverse>
struct ComplexFft {
  template <typename C>
  struct Kernel {
    static Status compute(KernelContext& c) {
      using R = typename C::value_type;
      const Tensor& x = c.input(0);
      GRAPHFN_RETURN_IF_ERROR(check_rank(x.shape(), kRank));
      Tensor* out = nullptr;
      GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, x.shape(), &out));
      const int64_t count = x.num_elements();
      C* data = out->data<C>();
      std::copy(x.data<C>(), x.data<C>() + count, data);
      if (count == 0) return Status::OK();
      const std::vector<int64_t> dims = dims_of(x.shape());
      for (int i = 0; i < kRank; ++i) fft_along_axis<R>(data, dims, static_cast<int>(dims.size()) - kRank + i, kInverse);
      return Status::OK();
    }
  };
};

// The input's inner dims must cover what the transform reads; TF skips this for empty inputs.
Status check_input_covers(const Shape& in, const std::vector<int64_t>& needed) {
  if (in.num_elements() == 0) return Status::OK();
  const int first = in.rank() - static_cast<int>(needed.size());
  for (size_t i = 0; i < needed.size(); ++i) {
    if (in.dim(first + i) < needed[i]) {
      return errors::InvalidArgument("Input dimension ", first + i, " must have length of at least ", needed[i],
                                     " but got: ", in.dim(first + i));
    }
  }
  return Status::OK();
}

Status check_real_pair(const KernelContext& c, bool forward) {
  const DType real = c.type_attr("Treal");
  const DType complex = c.type_attr("Tcomplex");
  const bool paired = (real == DType::kFloat32 && complex == DType::kComplex64) ||
                      (real == DType::kFloat64 && complex == DType::kComplex128);
  if (paired) return Status::OK();
  const int in = static_cast<int>(forward ? real : complex);
  const int out = static_cast<int>(forward ? complex : real);
  return errors::InvalidArgument("Wrong types for ", forward ? "forward" : "backward", " real FFT: in=", in,
                                 " out=", out);
}

// RFFT*: crop the input to fft_length, real-to-half-spectrum transform of each innermost row,
// then complex transforms along the other fft axes.
template <int kRank>
struct RealForwardFft {
  template <typename C>
  struct Kernel {
    static Status compute(KernelContext& c) {
      using R = typename C::value_type;
      // TF checks the shapes first, the dtype pair last (when it transforms).
      const Tensor& x = c.input(0);
      GRAPHFN_RETURN_IF_ERROR(check_rank(x.shape(), kRank));
      std::vector<int64_t> lengths;
      GRAPHFN_RETURN_IF_ERROR(read_fft_length(c, kRank, &lengths));
      GRAPHFN_RETURN_IF_ERROR(check_input_covers(x.shape(), lengths));
      GRAPHFN_RETURN_IF_ERROR(check_real_pair(c, true));
      const std::vector<int64_t> in_dims = dims_of(x.shape());
      const int rank = static_cast<int>(in_dims.size());
      std::vector<int64_t> cropped = in_dims, out_dims = in_dims;
      for (int i = 0; i < kRank; ++i) cropped[rank - kRank + i] = out_dims[rank - kRank + i] = lengths[i];
      const int64_t n = lengths[kRank - 1];
      out_dims[rank - 1] = n / 2 + 1;
      Tensor* out = nullptr;
      GRAPHFN_RETURN_IF_ERROR(check_output_size(Shape(out_dims), DTypeOf<C>::value));
      GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape(out_dims), &out));
      C* dst = out->data<C>();
      const int64_t out_count = out->num_elements();
      if (out_count == 0) return Status::OK();
      if (x.num_elements() == 0 || n == 0) {  // nothing to transform: the spectrum of zeros
        std::fill(dst, dst + out_count, C(0));
        return Status::OK();
      }
      const R* src = x.data<R>();
      std::vector<R> block;
      if (cropped != in_dims) {
        int64_t total = 1;
        for (int64_t d : cropped) total *= d;
        block.resize(total);
        copy_block(src, in_dims, block.data(), cropped);
        src = block.data();
      }
      parallel_for(out_count / (n / 2 + 1), lines_per_shard(n), [&](int64_t first, int64_t last) {
        Eigen::FFT<R>& fft = thread_fft<R>();
        for (int64_t r = first; r < last; ++r) real_forward(fft, dst + r * (n / 2 + 1), src + r * n, n);
      });
      for (int i = 0; i < kRank - 1; ++i) fft_along_axis<R>(dst, out_dims, rank - kRank + i, false);
      return Status::OK();
    }
  };
};

// IRFFT*: crop the half spectrum, inverse complex transforms along the outer fft axes, then the
// half-spectrum-to-real transform of each innermost row (imaginary parts of the DC and Nyquist
// terms are ignored, as TF's).
template <int kRank>
struct RealInverseFft {
  template <typename C>
  struct Kernel {
    static Status compute(KernelContext& c) {
      using R = typename C::value_type;
      const Tensor& x = c.input(0);
      GRAPHFN_RETURN_IF_ERROR(check_rank(x.shape(), kRank));
      std::vector<int64_t> lengths;
      GRAPHFN_RETURN_IF_ERROR(read_fft_length(c, kRank, &lengths));
      const int64_t n = lengths[kRank - 1];
      std::vector<int64_t> needed = lengths;
      needed[kRank - 1] = n / 2 + 1;
      GRAPHFN_RETURN_IF_ERROR(check_input_covers(x.shape(), needed));
      GRAPHFN_RETURN_IF_ERROR(check_real_pair(c, false));
      const std::vector<int64_t> in_dims = dims_of(x.shape());
      const int rank = static_cast<int>(in_dims.size());
      std::vector<int64_t> half = in_dims, out_dims = in_dims;
      for (int i = 0; i < kRank; ++i) {
        half[rank - kRank + i] = needed[i];
        out_dims[rank - kRank + i] = lengths[i];
      }
      Tensor* out = nullptr;
      GRAPHFN_RETURN_IF_ERROR(check_output_size(Shape(out_dims), DTypeOf<R>::value));
      GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape(out_dims), &out));
      R* dst = out->data<R>();
      const int64_t out_count = out->num_elements();
      if (out_count == 0) return Status::OK();
      if (x.num_elements() == 0) {
        std::fill(dst, dst + out_count, R(0));
        return Status::OK();
      }
      int64_t half_count = 1;
      for (int64_t d : half) half_count *= d;
      std::vector<C> spectrum(half_count);
      copy_block(x.data<C>(), in_dims, spectrum.data(), half);
      for (int i = 0; i < kRank - 1; ++i) fft_along_axis<R>(spectrum.data(), half, rank - kRank + i, true);
      parallel_for(out_count / n, lines_per_shard(n), [&](int64_t first, int64_t last) {
        Eigen::FFT<R>& fft = thread_fft<R>();
        for (int64_t r = first; r < last; ++r) real_inverse(fft, dst + r * n, spectrum.data() + r * (n / 2 + 1), n);
      });
      return Status::OK();
    }
  };
};

}  // namespace

void register_signal_kernels(OpRegistry& reg) {
  register_kernels<ComplexFft<1, false>::Kernel>(reg, "FFT", ComplexTypes{});
  register_kernels<ComplexFft<2, false>::Kernel>(reg, "FFT2D", ComplexTypes{});
  register_kernels<ComplexFft<3, false>::Kernel>(reg, "FFT3D", ComplexTypes{});
  register_kernels<ComplexFft<1, true>::Kernel>(reg, "IFFT", ComplexTypes{});
  register_kernels<ComplexFft<2, true>::Kernel>(reg, "IFFT2D", ComplexTypes{});
  register_kernels<ComplexFft<3, true>::Kernel>(reg, "IFFT3D", ComplexTypes{});
  register_kernels<RealForwardFft<1>::Kernel>(reg, "RFFT", ComplexTypes{});
  register_kernels<RealForwardFft<2>::Kernel>(reg, "RFFT2D", ComplexTypes{});
  register_kernels<RealForwardFft<3>::Kernel>(reg, "RFFT3D", ComplexTypes{});
  register_kernels<RealInverseFft<1>::Kernel>(reg, "IRFFT", ComplexTypes{});
  register_kernels<RealInverseFft<2>::Kernel>(reg, "IRFFT2D", ComplexTypes{});
  register_kernels<RealInverseFft<3>::Kernel>(reg, "IRFFT3D", ComplexTypes{});
}

}  // namespace graphfn
