// Kernels of ops/signal_ops.cc. The transforms are pocketfft's (cpp/third_party/pocketfft, the
// C++ FFT library NumPy uses; docs/design.md, "FFTs"): 1-D transforms along one axis at a time,
// the real ones on the innermost axis, lines spread over graphfn's thread pool. pocketfft picks
// its own factorisation per length (radix 2-7 and 11 passes, Bluestein's algorithm for lengths
// with large prime factors) and caches the plans. Forward transforms are unscaled, inverse ones
// divide by the length, as TF's.
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

// Only graphfn's pool runs FFT lines in parallel; pocketfft's own threads stay out.
#define POCKETFFT_NO_MULTITHREADING
#include <pocketfft_hdronly.h>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

// Lines of at least this many samples in all go to one shard of the thread pool.
constexpr int64_t kSamplesPerShard = 1 << 15;

// pocketfft transforms lines in batches of its vector width (at most 8: floats in AVX registers)
// and the lines left over one by one, and the two ways may differ in the last bit. Shards start
// at multiples of this group, so every line goes the same way whatever the thread count.
constexpr int64_t kLineGroup = 8;

// Runs fn(o, i0, i1) over blocks of the outer x inner lines of a transform of length n: lines
// [i0, i1) of outer index o, the blocks spread over the pool, i0 a multiple of kLineGroup.
template <typename Fn>
void for_line_blocks(int64_t outer, int64_t inner, int64_t n, Fn&& fn) {
  const int64_t groups_per_outer = (inner + kLineGroup - 1) / kLineGroup;
  const int64_t lines_per_shard = kSamplesPerShard / std::max<int64_t>(1, n);
  const int64_t groups_per_shard = std::max<int64_t>(1, lines_per_shard / kLineGroup);
  parallel_for(outer * groups_per_outer, groups_per_shard, [&](int64_t first, int64_t last) {
    for (int64_t g = first; g < last;) {
      const int64_t o = g / groups_per_outer, group = g % groups_per_outer;
      const int64_t count = std::min(last - g, groups_per_outer - group);
      fn(o, group * kLineGroup, std::min((group + count) * kLineGroup, inner));
      g += count;
    }
  });
}

// A line count or length as pocketfft's shape entry, and a stride of `elements` values of T in
// bytes (pocketfft's strides are byte strides).
size_t extent(int64_t n) { return static_cast<size_t>(n); }
template <typename T>
ptrdiff_t byte_stride(int64_t elements) { return static_cast<ptrdiff_t>(elements * static_cast<int64_t>(sizeof(T))); }

// Transforms every line of `data` (shape `dims`, row-major) along `axis` in place: the unscaled
// forward DFT, or the inverse divided by the length.
template <typename R>
void fft_along_axis(std::complex<R>* data, const std::vector<int64_t>& dims, int axis, bool inverse) {
  using C = std::complex<R>;
  const int64_t n = dims[axis];
  if (n <= 1) return;  // a length-1 transform is the identity
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= dims[i];
  for (size_t i = axis + 1; i < dims.size(); ++i) inner *= dims[i];
  const R scale = inverse ? R(1) / static_cast<R>(n) : R(1);
  if (inner == 1) {  // contiguous lines
    for_line_blocks(1, outer, n, [&](int64_t, int64_t first, int64_t last) {
      C* base = data + first * n;
      pocketfft::c2c<R>({extent(last - first), extent(n)}, {byte_stride<C>(n), byte_stride<C>(1)},
                        {byte_stride<C>(n), byte_stride<C>(1)}, {1}, !inverse, base, base, scale);
    });
    return;
  }
  for_line_blocks(outer, inner, n, [&](int64_t o, int64_t first, int64_t last) {  // strided lines
    C* base = data + o * n * inner + first;
    pocketfft::c2c<R>({extent(n), extent(last - first)}, {byte_stride<C>(inner), byte_stride<C>(1)},
                      {byte_stride<C>(inner), byte_stride<C>(1)}, {0}, !inverse, base, base, scale);
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
      const int64_t half = n / 2 + 1;
      for_line_blocks(1, out_count / half, n, [&](int64_t, int64_t first, int64_t last) {
        pocketfft::r2c<R>({extent(last - first), extent(n)}, {byte_stride<R>(n), byte_stride<R>(1)},
                          {byte_stride<C>(half), byte_stride<C>(1)}, size_t{1}, true, src + first * n,
                          dst + first * half, R(1));
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
      // pocketfft's half-spectrum-to-real transform reads only the real parts of the DC and
      // Nyquist terms, as TF's.
      const int64_t half_n = n / 2 + 1;
      const R scale = R(1) / static_cast<R>(n);
      for_line_blocks(1, out_count / n, n, [&](int64_t, int64_t first, int64_t last) {
        pocketfft::c2r<R>({extent(last - first), extent(n)}, {byte_stride<C>(half_n), byte_stride<C>(1)},
                          {byte_stride<R>(n), byte_stride<R>(1)}, size_t{1}, false, spectrum.data() + first * half_n,
                          dst + first * n, scale);
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
