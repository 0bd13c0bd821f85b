// FusedBatchNormV3 and FusedBatchNormGradV3 (float). Both are two passes over the data: one for
// per-channel sums (accumulated in double, about a per-channel shift, so a large mean costs no
// precision), one that applies a per-channel affine map. Channels-last data runs as rows of C
// (the inner loop vectorises over channels); channels-first as contiguous planes per channel.
// Large inputs split their outer dimension in two halves on the shared pool (core/thread_pool.h).
#include <cmath>
#include <string>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

// x as [outer, channels, inner]: inner is 1 for channels-last formats.
struct Layout {
  int64_t outer = 0, channels = 0, inner = 1;
  int64_t count() const { return outer * inner; }  // elements per channel
};

// Runs fn(begin, end, part) over [0, outer) in two halves (parts 0 and 1) on the shared pool
// when the data is large enough to pay for it (~50 us), else once as part 0. The halves do not
// depend on the number of threads (one thread runs both), so neither do the results.
constexpr int64_t kParallelElements = 1 << 18;

template <typename Fn>
void split_outer(const Layout& l, Fn fn) {
  if (l.outer < 2 || l.outer * l.channels * l.inner < kParallelElements) {
    fn(int64_t{0}, l.outer, 0);
    return;
  }
  const int64_t half = l.outer / 2;
  parallel_for(2, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t part = p0; part < p1; ++part) {
      if (part == 0) {
        fn(int64_t{0}, half, 0);
      } else {
        fn(half, l.outer, 1);
      }
    }
  });
}

Layout layout_of(const Shape& s, const AttrMap& attrs) {
  const std::string* f = attrs.get_string("data_format");
  const bool channels_first = f && (*f == "NCHW" || *f == "NCDHW");
  Layout l;
  const int c_axis = channels_first ? 1 : s.rank() - 1;
  l.channels = s.dim(c_axis);
  l.outer = 1;
  for (int i = 0; i < c_axis; ++i) l.outer *= s.dim(i);
  for (int i = c_axis + 1; i < s.rank(); ++i) l.inner *= s.dim(i);
  return l;
}

// Per channel: s1 = sum(a - shift), s2 = sum((a - shift) * (b - shift_b)) where b is a second
// array (b == nullptr: b is a itself, so s2 is the sum of squares).
struct ChannelSums {
  std::vector<double> s1, s2;
};

void channel_sums_range(const float* a, const float* shift_a, const float* b, const float* shift_b, const Layout& l,
                        int64_t begin, int64_t end, ChannelSums& r) {
  const int64_t C = l.channels;
  double* s1 = r.s1.data();
  double* s2 = r.s2.data();
  if (l.inner == 1) {
    for (int64_t row = begin; row < end; ++row) {
      const float* pa = a + row * C;
      const float* pb = (b ? b : a) + row * C;
      const float* sb = b ? shift_b : shift_a;
      for (int64_t c = 0; c < C; ++c) {
        const float da = pa[c] - shift_a[c];
        const float db = pb[c] - sb[c];
        s1[c] += da;
        s2[c] += static_cast<double>(da) * db;
      }
    }
    return;
  }
  for (int64_t n = begin; n < end; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const int64_t base = (n * C + c) * l.inner;
      const float* pa = a + base;
      const float* pb = (b ? b : a) + base;
      const float sa = shift_a[c], sb = b ? shift_b[c] : shift_a[c];
      double t1 = 0, t2 = 0;
      for (int64_t i = 0; i < l.inner; ++i) {
        const float da = pa[i] - sa;
        t1 += da;
        t2 += static_cast<double>(da) * (pb[i] - sb);
      }
      s1[c] += t1;
      s2[c] += t2;
    }
  }
}

ChannelSums channel_sums(const float* a, const float* shift_a, const float* b, const float* shift_b, const Layout& l) {
  const int64_t C = l.channels;
  ChannelSums parts[2] = {{std::vector<double>(C, 0.0), std::vector<double>(C, 0.0)},
                          {std::vector<double>(C, 0.0), std::vector<double>(C, 0.0)}};
  split_outer(l, [&](int64_t begin, int64_t end, int part) {
    channel_sums_range(a, shift_a, b, shift_b, l, begin, end, parts[part]);
  });
  for (int64_t c = 0; c < C; ++c) {
    parts[0].s1[c] += parts[1].s1[c];
    parts[0].s2[c] += parts[1].s2[c];
  }
  return std::move(parts[0]);
}

// out = k1[c] * a + k2[c] * b + k3[c] (b may be null: then k2 is ignored).
void affine_range(const float* a, const float* b, float* out, const Layout& l, const std::vector<float>& k1,
                  const std::vector<float>& k2, const std::vector<float>& k3, int64_t begin, int64_t end) {
  const int64_t C = l.channels;
  if (l.inner == 1) {
    for (int64_t row = begin; row < end; ++row) {
      const float* pa = a + row * C;
      float* po = out + row * C;
      if (b) {
        const float* pb = b + row * C;
        for (int64_t c = 0; c < C; ++c) po[c] = k1[c] * pa[c] + k2[c] * pb[c] + k3[c];
      } else {
        for (int64_t c = 0; c < C; ++c) po[c] = k1[c] * pa[c] + k3[c];
      }
    }
    return;
  }
  for (int64_t n = begin; n < end; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const int64_t base = (n * C + c) * l.inner;
      const float m1 = k1[c], m2 = k2[c], m3 = k3[c];
      const float* pa = a + base;
      float* po = out + base;
      if (b) {
        const float* pb = b + base;
        for (int64_t i = 0; i < l.inner; ++i) po[i] = m1 * pa[i] + m2 * pb[i] + m3;
      } else {
        for (int64_t i = 0; i < l.inner; ++i) po[i] = m1 * pa[i] + m3;
      }
    }
  }
}

void affine(const float* a, const float* b, float* out, const Layout& l, const std::vector<float>& k1,
            const std::vector<float>& k2, const std::vector<float>& k3) {
  split_outer(l, [&](int64_t begin, int64_t end, int) { affine_range(a, b, out, l, k1, k2, k3, begin, end); });
}

std::vector<float> first_row(const float* x, const Layout& l) {
  std::vector<float> shift(l.channels, 0.0f);
  if (l.count() == 0) return shift;
  for (int64_t c = 0; c < l.channels; ++c) shift[c] = x[c * l.inner];
  return shift;
}

Tensor& output_vector(KernelContext& c, int i) { return c.allocate_output(i); }

Status fused_batch_norm_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const Layout l = layout_of(x.shape(), c.attrs);
  const int64_t C = l.channels;
  const float* scale = c.input(1).data<float>();
  const float* offset = c.input(2).data<float>();
  const Tensor& mean_in = c.input(3);
  const Tensor& var_in = c.input(4);
  const float epsilon = static_cast<float>(c.attrs.get_float("epsilon", 0.0001));
  const bool training = c.attrs.get_bool("is_training", true);

  std::vector<float> mean(C), var(C);
  float* batch_mean = output_vector(c, 1).data<float>();
  float* batch_var = output_vector(c, 2).data<float>();
  float* saved_mean = output_vector(c, 3).data<float>();
  float* saved_var = output_vector(c, 4).data<float>();
  c.allocate_output(5).data<float>()[0] = 0.0f;
  if (training) {
    const std::vector<float> shift = first_row(x.data<float>(), l);
    const ChannelSums s = channel_sums(x.data<float>(), shift.data(), nullptr, nullptr, l);
    const double n = static_cast<double>(l.count());
    const double factor = c.attrs.get_float("exponential_avg_factor", 1.0);
    const bool running = factor != 1.0 && mean_in.num_elements() == C && var_in.num_elements() == C;
    for (int64_t ch = 0; ch < C; ++ch) {
      const double d = s.s1[ch] / n;
      const double v = std::max(s.s2[ch] / n - d * d, 0.0);
      mean[ch] = static_cast<float>(shift[ch] + d);
      var[ch] = static_cast<float>(n > 0 ? v : d);  // NaN for empty input, as TF
      // Bessel's correction in float, the variance times float(n / (n - 1)), as TF rounds it.
      const float unbiased = n > 1 ? var[ch] * static_cast<float>(n / (n - 1)) : var[ch];
      batch_mean[ch] = running ? static_cast<float>((1 - factor) * mean_in.data<float>()[ch] + factor * mean[ch])
                               : mean[ch];
      batch_var[ch] = running ? static_cast<float>((1 - factor) * var_in.data<float>()[ch] + factor * unbiased)
                              : unbiased;
    }
  } else {
    std::copy(mean_in.data<float>(), mean_in.data<float>() + C, mean.begin());
    std::copy(var_in.data<float>(), var_in.data<float>() + C, var.begin());
    std::copy(mean.begin(), mean.end(), batch_mean);
    std::copy(var.begin(), var.end(), batch_var);
  }
  std::copy(mean.begin(), mean.end(), saved_mean);
  std::copy(var.begin(), var.end(), saved_var);

  std::vector<float> k1(C), k3(C);
  for (int64_t ch = 0; ch < C; ++ch) {
    k1[ch] = scale[ch] / std::sqrt(var[ch] + epsilon);
    k3[ch] = offset[ch] - mean[ch] * k1[ch];
  }
  affine(x.data<float>(), nullptr, c.allocate_output(0).data<float>(), l, k1, k1, k3);
  return Status::OK();
}

// Training: dx = scale * inv * (dy - mean(dy) - x_hat * mean(dy * x_hat)), with x_hat the
// normalized input; inference: dx = dy * scale * inv. Both are k1 * dy + k2 * x + k3 per channel.
Status fused_batch_norm_grad_kernel(KernelContext& c) {
  const Tensor& dy = c.input(0);
  const Tensor& x = c.input(1);
  const Layout l = layout_of(x.shape(), c.attrs);
  const int64_t C = l.channels;
  const float* scale = c.input(2).data<float>();
  const float* mean = c.input(3).data<float>();
  const float* var = c.input(4).data<float>();
  const float epsilon = static_cast<float>(c.attrs.get_float("epsilon", 0.0001));
  const bool training = c.attrs.get_bool("is_training", true);

  const std::vector<float> zero(C, 0.0f);
  // s1 = sum(dy), s2 = sum(dy * (x - mean)).
  const ChannelSums s = channel_sums(dy.data<float>(), zero.data(), x.data<float>(), mean, l);
  const double n = static_cast<double>(l.count());
  float* d_scale = c.allocate_output(1).data<float>();
  float* d_offset = c.allocate_output(2).data<float>();
  c.allocate_output(3);
  c.allocate_output(4);
  std::vector<float> k1(C), k2(C, 0.0f), k3(C, 0.0f);
  for (int64_t ch = 0; ch < C; ++ch) {
    const double inv = 1.0 / std::sqrt(static_cast<double>(var[ch]) + epsilon);
    d_scale[ch] = static_cast<float>(s.s2[ch] * inv);
    d_offset[ch] = static_cast<float>(s.s1[ch]);
    k1[ch] = static_cast<float>(scale[ch] * inv);
    if (training && n > 0) {
      const double b = -scale[ch] * inv * inv * inv * s.s2[ch] / n;
      k2[ch] = static_cast<float>(b);
      k3[ch] = static_cast<float>(-scale[ch] * inv * s.s1[ch] / n - b * mean[ch]);
    }
  }
  affine(dy.data<float>(), training ? x.data<float>() : nullptr, c.allocate_output(0).data<float>(), l, k1, k2, k3);
  return Status::OK();
}

}  // namespace

void register_nn_batch_norm_kernels(OpRegistry& reg) {
  reg.set_kernel("FusedBatchNormV3", DType::kFloat32, &fused_batch_norm_kernel);
  reg.set_kernel("FusedBatchNormGradV3", DType::kFloat32, &fused_batch_norm_grad_kernel);
}

}  // namespace graphfn
