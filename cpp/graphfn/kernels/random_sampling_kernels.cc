// Kernels of ops/random_sampling_ops.cc. Samplers that need a varying number of random words per
// sample (rejection) read them one after another from a private Philox stream: for the stateful
// ops one derived from the op's reserved stream position, for the stateless ones from the seed.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/philox.h"
#include "graphfn/kernels/random_distributions.h"
#include "graphfn/kernels/random_streams.h"

namespace graphfn {
namespace {

// Consecutive 32-bit words of a Philox stream, with uniforms and normals on top.
class WordSource {
 public:
  explicit WordSource(philox::Stream s) : stream_(s) {}
  uint32_t word() {
    if (used_ == 4) {
      block_ = stream_.block(next_++);
      used_ = 0;
    }
    return block_[used_++];
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() {
    const uint64_t hi = word(), lo = word();
    return static_cast<double>(((hi << 32) | lo) >> 11) * 0x1p-53;
  }
  double normal() {  // Box-Muller, one of the pair
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586476925 * u2);
  }
  // Uniform integer in [0, n), n >= 1.
  uint64_t below(uint64_t n) {
    const uint64_t r = (uint64_t{word()} << 32) | word();
    return static_cast<uint64_t>((static_cast<unsigned __int128>(r) * n) >> 64);
  }

 private:
  philox::Stream stream_;
  philox::Block block_{};
  uint64_t next_ = 0;
  int used_ = 4;
};

// A private stream for one call of a stateful op: the reserved position makes it unique.
WordSource stateful_source(const KernelContext& c) {
  philox::Stream s = reserve_random_blocks(c, c.attrs.get_int("seed", 0), c.attrs.get_int("seed2", 0), 1);
  s.nonce = (s.nonce * 0x9E3779B97F4A7C15ull) ^ (s.first_block + 0xD1B54A32D192ED03ull);
  s.first_block = 0;
  return WordSource(s);
}

WordSource seeded_source(const Tensor& seed) {
  int64_t v[2];
  for (int i = 0; i < 2; ++i) {
    v[i] = seed.dtype() == DType::kInt32 ? seed.data<int32_t>()[i] : seed.data<int64_t>()[i];
  }
  philox::Stream s;
  const uint64_t key = static_cast<uint64_t>(v[0]);
  s.key = {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)};
  s.nonce = static_cast<uint64_t>(v[1]) ^ 0x5851F42D4C957F2Dull;  // apart from the fixed-size stateless ops
  return WordSource(s);
}

// Any real tensor's element i as a double.
double value_at(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::kFloat32: return t.data<float>()[i];
    case DType::kFloat64: return t.data<double>()[i];
    case DType::kInt32: return t.data<int32_t>()[i];
    case DType::kInt64: return static_cast<double>(t.data<int64_t>()[i]);
    default: return 0.0;
  }
}

// ---- truncated normal -------------------------------------------------------------------------

template <typename T>
struct TruncatedNormalKernel {
  static Status compute(KernelContext& c) {
    Tensor& out = c.allocate_output(0);
    WordSource src = stateful_source(c);
    T* data = out.data<T>();
    for (int64_t i = 0, n = out.num_elements(); i < n; ++i) {
      double x;
      do {
        x = src.normal();
      } while (!(std::abs(x) < 2.0));  // redraw beyond two standard deviations
      data[i] = static_cast<T>(x);
    }
    return Status::OK();
  }
};

// ---- shuffle ----------------------------------------------------------------------------------

struct ShuffleKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    Tensor& out = c.allocate_output(0);
    WordSource src = stateful_source(c);
    const int64_t rows = in.rank() == 0 ? 1 : in.dim(0);
    if (rows == 0) return Status::OK();
    std::vector<int64_t> order(rows);
    for (int64_t i = 0; i < rows; ++i) order[i] = i;
    for (int64_t i = rows - 1; i > 0; --i) std::swap(order[i], order[src.below(static_cast<uint64_t>(i) + 1)]);
    if (in.dtype() == DType::kString) {
      const int64_t per_row = in.num_elements() / rows;
      const std::string* a = in.data<std::string>();
      std::string* b = out.data<std::string>();
      for (int64_t i = 0; i < rows; ++i) std::copy_n(a + order[i] * per_row, per_row, b + i * per_row);
      return Status::OK();
    }
    const size_t row_bytes = in.bytes() / rows;
    const char* a = static_cast<const char*>(in.raw_data());
    char* b = static_cast<char*>(out.raw_data());
    for (int64_t i = 0; i < rows; ++i) std::memcpy(b + i * row_bytes, a + order[i] * row_bytes, row_bytes);
    return Status::OK();
  }
};

// ---- categorical ------------------------------------------------------------------------------

template <typename T>
Status sample_categorical(KernelContext& c, WordSource& src) {
  const Tensor& logits = c.input(0);
  // num_samples comes from the data: an output too large to allocate is TF's OOM error.
  Tensor* allocated;
  const Status st = c.allocate_output(0, c.output_shapes[0], &allocated);
  if (st.code() == Code::kResourceExhausted) {
    return errors::ResourceExhausted("OOM when allocating tensor with shape", c.output_shapes[0], " and type ",
                                     dtype_tf_string(c.output_dtypes[0]),
                                     " on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu");
  }
  GRAPHFN_RETURN_IF_ERROR(st);
  Tensor& out = *allocated;
  const int64_t batch = logits.dim(0), classes = logits.dim(1);
  const int64_t samples = out.dim(1);
  const bool wide = out.dtype() == DType::kInt64;
  std::vector<double> cdf(classes);
  for (int64_t b = 0; b < batch; ++b) {
    const T* row = logits.data<T>() + b * classes;
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t k = 0; k < classes; ++k) {
      if (std::isfinite(static_cast<double>(row[k]))) max = std::max(max, static_cast<double>(row[k]));
    }
    double total = 0.0;
    for (int64_t k = 0; k < classes; ++k) {
      const double v = static_cast<double>(row[k]);
      total += std::isfinite(v) ? std::exp(v - max) : 0.0;  // -inf (and nan) logits never drawn
      cdf[k] = total;
    }
    for (int64_t s = 0; s < samples; ++s) {
      const double target = src.uniform() * total;
      int64_t k = std::upper_bound(cdf.begin(), cdf.end(), target) - cdf.begin();
      k = std::min(k, classes - 1);
      if (wide) out.data<int64_t>()[b * samples + s] = k;
      else out.data<int32_t>()[b * samples + s] = static_cast<int32_t>(k);
    }
  }
  return Status::OK();
}

template <typename T>
struct MultinomialKernel {
  static Status compute(KernelContext& c) {
    WordSource src = stateful_source(c);
    return sample_categorical<T>(c, src);
  }
};

template <typename T>
struct StatelessMultinomialKernel {
  static Status compute(KernelContext& c) {
    WordSource src = seeded_source(c.input(2));
    return sample_categorical<T>(c, src);
  }
};

// ---- gamma ------------------------------------------------------------------------------------

// Marsaglia and Tsang's method; alpha < 1 boosts to alpha + 1 and scales by u^(1/alpha).
double sample_gamma(WordSource& src, double alpha) {
  if (!(alpha > 0)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(alpha)) return alpha;
  const double boost = alpha < 1 ? std::pow(1.0 - src.uniform(), 1.0 / alpha) : 1.0;
  const double d = (alpha < 1 ? alpha + 1 : alpha) - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = src.normal();
    double v = 1.0 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    const double u = 1.0 - src.uniform();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v * boost;
  }
}

template <typename T>
struct GammaKernel {
  static Status compute(KernelContext& c) {
    const Tensor& alpha = c.input(1);
    Tensor& out = c.allocate_output(0);
    WordSource src = stateful_source(c);
    const int64_t per = alpha.num_elements();
    const int64_t n = per == 0 ? 0 : out.num_elements() / per;
    T* data = out.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < per; ++j) data[i * per + j] = static_cast<T>(sample_gamma(src, value_at(alpha, j)));
    }
    return Status::OK();
  }
};

// ---- poisson ----------------------------------------------------------------------------------

// Knuth's product of uniforms for small rates, Hoermann's transformed rejection (PTRS) otherwise.
double sample_poisson(WordSource& src, double rate) {
  if (std::isnan(rate)) return rate;
  if (!(rate > 0)) return 0.0;
  if (rate < 10) {
    const double limit = std::exp(-rate);
    double prod = 1.0 - src.uniform();
    double k = 0;
    while (prod > limit) {
      prod *= 1.0 - src.uniform();
      k += 1;
    }
    return k;
  }
  if (std::isinf(rate)) return rate;
  const double log_rate = std::log(rate);
  const double b = 0.931 + 2.53 * std::sqrt(rate);
  const double a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double u = src.uniform() - 0.5;
    const double v = 1.0 - src.uniform();
    const double us = 0.5 - std::abs(u);
    const double k = std::floor((2 * a / us + b) * u + rate + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    const double s = std::log(v * inv_alpha / (a / (us * us) + b));
    const double t = -rate + k * log_rate - std::lgamma(k + 1);
    if (s <= t) return k;
  }
}

template <typename T>
struct PoissonKernel {
  static Status compute(KernelContext& c) {
    const Tensor& rate = c.input(1);
    Tensor& out = c.allocate_output(0);
    WordSource src = stateful_source(c);
    const int64_t per = rate.num_elements();
    const int64_t n = per == 0 ? 0 : out.num_elements() / per;
    T* data = out.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < per; ++j) {
        const double k = sample_poisson(src, value_at(rate, j));
        if constexpr (std::is_integral_v<T>) {
          data[i * per + j] = std::isfinite(k) && k < 9.2e18 ? static_cast<T>(k) : std::numeric_limits<T>::max();
        } else {
          data[i * per + j] = static_cast<T>(k);
        }
      }
    }
    return Status::OK();
  }
};

// ---- binomial ---------------------------------------------------------------------------------

// Inversion for small means, otherwise Hoermann's BTRS with the exact log-pmf ratio as its bound.
double sample_binomial(WordSource& src, double n, double p) {
  if (std::isnan(n) || std::isnan(p) || n < 0 || p < 0 || p > 1) return std::numeric_limits<double>::quiet_NaN();
  n = std::floor(n);
  if (n == 0 || p == 0) return 0;
  if (p == 1) return n;
  if (p > 0.5) return n - sample_binomial(src, n, 1 - p);
  const double q = 1 - p;
  if (n * p < 10) {
    const double s = p / q, a = (n + 1) * s;
    double r = std::exp(n * std::log1p(-p)), u = src.uniform(), x = 0;  // q^n without rounding q
    while (u > r && x < n) {
      u -= r;
      x += 1;
      r *= a / x - s;
    }
    return x;
  }
  const double spq = std::sqrt(n * p * q);
  const double b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = n * p + 0.5;
  const double vr = 0.92 - 4.2 / b;
  const double alpha = (2.83 + 5.1 / b) * spq;
  const double m = std::floor((n + 1) * p);
  const double log_pq = std::log(p / q);
  const double log_fm = -std::lgamma(m + 1) - std::lgamma(n - m + 1) + m * log_pq;
  for (;;) {
    const double u = src.uniform() - 0.5;
    double v = 1.0 - src.uniform();
    const double us = 0.5 - std::abs(u);
    const double k = std::floor((2 * a / us + b) * u + c);
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k;
    v = std::log(v * alpha / (a / (us * us) + b));
    const double log_fk = -std::lgamma(k + 1) - std::lgamma(n - k + 1) + k * log_pq;
    if (v <= log_fk - log_fm) return k;
  }
}

template <typename T>
struct BinomialKernel {
  static Status compute(KernelContext& c) {
    const Tensor& counts = c.input(2);
    const Tensor& probs = c.input(3);
    Tensor& out = c.allocate_output(0);
    WordSource src = seeded_source(c.input(1));
    const Shape& shape = out.shape();
    T* data = out.data<T>();
    // Index of output element i in a parameter broadcast from the right.
    auto param_index = [&shape](const Tensor& t, int64_t i) {
      int64_t index = 0, stride = 1;
      for (int k = 0; k < t.rank(); ++k) {
        const int od = shape.rank() - 1 - k, td = t.rank() - 1 - k;
        int64_t outer = 1;
        for (int j = od + 1; j < shape.rank(); ++j) outer *= shape.dim(j);
        const int64_t coord = (i / outer) % shape.dim(od);
        if (t.dim(td) != 1) index += coord * stride;
        stride *= t.dim(td);
      }
      return index;
    };
    for (int64_t i = 0, n = out.num_elements(); i < n; ++i) {
      const double k = sample_binomial(src, value_at(counts, param_index(counts, i)), value_at(probs, param_index(probs, i)));
      if constexpr (std::is_integral_v<T>) {
        data[i] = std::isnan(k) ? T(0) : static_cast<T>(std::min(k, 9.2e18));
      } else {
        data[i] = static_cast<T>(k);
      }
    }
    return Status::OK();
  }
};

// ---- gamma sample gradient ----------------------------------------------------------------------

// The regularized lower incomplete gamma function P(a, x): its series below a + 1, the continued
// fraction of Q = 1 - P above.
double lower_regularized_gamma(double a, double x) {
  if (x <= 0) return 0.0;
  const double log_prefix = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1) {
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 1000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::abs(term) < std::abs(sum) * 1e-17) break;
    }
    return sum * std::exp(log_prefix);
  }
  // Lentz's method for the continued fraction of Q(a, x).
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int n = 1; n < 1000; ++n) {
    const double an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < 1e-16) break;
  }
  return 1.0 - std::exp(log_prefix) * h;
}

// A gamma(alpha) sample x moves with alpha so that its quantile stays put:
// dx/dalpha = -(dP/dalpha) / (dP/dx), with dP/dalpha by a central difference in double.
double gamma_sample_grad(double alpha, double x) {
  if (!(alpha > 0) || !(x > 0) || !std::isfinite(x)) return x == 0 ? 0.0 : std::numeric_limits<double>::quiet_NaN();
  const double h = 1e-5 * std::max(alpha, 1e-3);
  const double dp_da = (lower_regularized_gamma(alpha + h, x) - lower_regularized_gamma(alpha - h, x)) / (2 * h);
  const double log_density = (alpha - 1) * std::log(x) - x - std::lgamma(alpha);
  return -dp_da / std::exp(log_density);
}

template <typename T>
struct RandomGammaGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor& alpha = c.input(0);
    const Tensor& sample = c.input(1);
    Tensor& out = c.allocate_output(0);
    const Shape& shape = out.shape();
    // Index into an input broadcast (numpy rules) to the output's shape.
    auto index_in = [&shape](const Tensor& t, int64_t i) {
      int64_t index = 0, stride = 1, outer = 1;
      for (int k = 0; k < shape.rank(); ++k) {
        const int od = shape.rank() - 1 - k, td = t.rank() - 1 - k;
        const int64_t coord = (i / outer) % shape.dim(od);
        outer *= shape.dim(od);
        if (td < 0) continue;
        if (t.dim(td) != 1) index += coord * stride;
        stride *= t.dim(td);
      }
      return index;
    };
    T* data = out.data<T>();
    for (int64_t i = 0, n = out.num_elements(); i < n; ++i) {
      data[i] = static_cast<T>(gamma_sample_grad(alpha.data<T>()[index_in(alpha, i)], sample.data<T>()[index_in(sample, i)]));
    }
    return Status::OK();
  }
};

}  // namespace

void register_random_sampling_kernels(OpRegistry& reg) {
  register_kernels<TruncatedNormalKernel>(reg, "TruncatedNormal", FloatTypes{});
  for (DType dt : {DType::kFloat32, DType::kFloat64, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64,
                   DType::kUInt8, DType::kBool, DType::kString}) {
    reg.set_kernel("RandomShuffle", dt, &ShuffleKernel::compute);
  }
  register_kernels<MultinomialKernel>(reg, "Multinomial", NumericTypes{});
  register_kernels<StatelessMultinomialKernel>(reg, "StatelessMultinomial", NumericTypes{});
  register_kernels<GammaKernel>(reg, "RandomGamma", FloatTypes{});
  register_kernels<PoissonKernel>(reg, "RandomPoissonV2", TypeList<float, double, int32_t, int64_t>{});
  register_kernels<RandomGammaGradKernel>(reg, "RandomGammaGrad", FloatTypes{});
  register_kernels<BinomialKernel>(reg, "StatelessRandomBinomial", TypeList<float, double, int32_t, int64_t>{});
}

}  // namespace graphfn
