// BiasAdd / BiasAddGrad (channels-last rows or channels-first planes) and local response
// normalization (LRN / LRNGrad, over the last dimension).
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/parallel_loops.h"

namespace graphfn {
namespace {

// The value as [outer, channels, inner]; inner is 1 unless NCHW with rank > 2 (TF's rule).
struct BiasLayout {
  int64_t outer = 1, channels = 0, inner = 1;
};

BiasLayout bias_layout(const Shape& s, const AttrMap& attrs) {
  const std::string* f = attrs.get_string("data_format");
  const int axis = f && *f == "NCHW" && s.rank() > 2 ? 1 : s.rank() - 1;
  BiasLayout l;
  l.channels = s.dim(axis);
  for (int i = 0; i < axis; ++i) l.outer *= s.dim(i);
  for (int i = axis + 1; i < s.rank(); ++i) l.inner *= s.dim(i);
  return l;
}

template <typename T>
struct BiasAddKernel {
  static Status compute(KernelContext& c) {
    const Tensor& v = c.input(0);
    const BiasLayout l = bias_layout(v.shape(), c.attrs);
    const T* pv = v.data<T>();
    const T* pb = c.input(1).data<T>();
    T* po = c.allocate_output(0).data<T>();
    if (l.inner == 1) {  // rows of channels, threaded over rows for large values
      parallel_rows(l.outer, l.channels, kCheapElementsPerShard, [&](int64_t r0, int64_t r1) {
        using Mat = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic>;  // column-major: one column per row
        Eigen::Map<const Mat> in(pv + r0 * l.channels, l.channels, r1 - r0);
        Eigen::Map<Mat> out(po + r0 * l.channels, l.channels, r1 - r0);
        Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> bias(pb, l.channels);
        out = in.colwise() + bias;
      });
      return Status::OK();
    }
    for (int64_t n = 0; n < l.outer; ++n) {
      for (int64_t ch = 0; ch < l.channels; ++ch) {
        const int64_t base = (n * l.channels + ch) * l.inner;
        const T b = pb[ch];
        for (int64_t i = 0; i < l.inner; ++i) po[base + i] = static_cast<T>(pv[base + i] + b);
      }
    }
    return Status::OK();
  }
};

// Rows of channels summed per part at least, and at most this many parts: a large gradient's
// rows are cut into parts fixed by the sizes (not the threads), summed on the pool, then the
// parts' sums added in order, so the result does not depend on the thread count.
constexpr int64_t kBiasGradPartElements = 64 * 1024;
constexpr int64_t kBiasGradMaxParts = 8;

// Sums the gradient over every axis but the channel axis (integers wrap, as in TF).
template <typename T>
struct BiasAddGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor& g = c.input(0);
    const BiasLayout l = bias_layout(g.shape(), c.attrs);
    using Acc = std::conditional_t<std::is_floating_point_v<T>, T, uint64_t>;
    std::vector<Acc> acc(l.channels, Acc(0));
    const T* pg = g.data<T>();
    if (l.inner == 1 && l.channels > 0) {  // rows of channels: the inner loop runs over channels (vectorised)
      const int64_t parts = std::clamp<int64_t>(l.outer * l.channels / kBiasGradPartElements, 1, kBiasGradMaxParts);
      std::vector<Acc> partials(static_cast<size_t>((parts - 1) * l.channels), Acc(0));
      parallel_for(parts, 1, [&](int64_t p0, int64_t p1) {
        for (int64_t part = p0; part < p1; ++part) {
          Acc* __restrict a = part == 0 ? acc.data() : partials.data() + (part - 1) * l.channels;
          for (int64_t n = part * l.outer / parts; n < (part + 1) * l.outer / parts; ++n) {
            const T* __restrict p = pg + n * l.channels;
            for (int64_t ch = 0; ch < l.channels; ++ch) a[ch] += static_cast<Acc>(p[ch]);
          }
        }
      });
      for (int64_t part = 1; part < parts; ++part) {
        for (int64_t ch = 0; ch < l.channels; ++ch) acc[ch] += partials[(part - 1) * l.channels + ch];
      }
    }
    for (int64_t n = 0; l.inner > 1 && n < l.outer; ++n) {
      for (int64_t ch = 0; ch < l.channels; ++ch) {
        const T* p = pg + (n * l.channels + ch) * l.inner;
        Acc s(0);
        for (int64_t i = 0; i < l.inner; ++i) s += static_cast<Acc>(p[i]);
        acc[ch] += s;
      }
    }
    T* po = c.allocate_output(0).data<T>();
    for (int64_t ch = 0; ch < l.channels; ++ch) po[ch] = static_cast<T>(acc[ch]);
    return Status::OK();
  }
};

struct LrnAttrs {
  int64_t radius;
  float bias, alpha, beta;
};

LrnAttrs lrn_attrs(const AttrMap& a) {
  return {a.get_int("depth_radius", 5), static_cast<float>(a.get_float("bias", 1.0)),
          static_cast<float>(a.get_float("alpha", 1.0)), static_cast<float>(a.get_float("beta", 0.5))};
}

// norm[d] = bias + alpha * sum of in[d']^2 over |d' - d| <= radius, for one row of depth D.
void lrn_norms(const float* in, int64_t depth, const LrnAttrs& a, float* norm) {
  for (int64_t d = 0; d < depth; ++d) {
    const int64_t lo = std::max<int64_t>(0, d - a.radius), hi = std::min<int64_t>(depth, d + a.radius + 1);
    float s = 0;
    for (int64_t k = lo; k < hi; ++k) s += in[k] * in[k];
    norm[d] = a.bias + a.alpha * s;
  }
}

Status lrn_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const LrnAttrs a = lrn_attrs(c.attrs);
  const int64_t depth = x.dim(3), rows = depth ? x.num_elements() / depth : 0;
  const float* px = x.data<float>();
  float* po = c.allocate_output(0).data<float>();
  std::vector<float> norm(depth);
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = px + r * depth;
    lrn_norms(in, depth, a, norm.data());
    for (int64_t d = 0; d < depth; ++d) po[r * depth + d] = in[d] * std::pow(norm[d], -a.beta);
  }
  return Status::OK();
}

// d out[k] / d in[j] = [j == k] norm[k]^-beta - 2 alpha beta in[j] out[k] / norm[k], for j within
// the radius of k.
Status lrn_grad_kernel(KernelContext& c) {
  const Tensor& grads = c.input(0);
  const LrnAttrs a = lrn_attrs(c.attrs);
  const int64_t depth = grads.dim(3), rows = depth ? grads.num_elements() / depth : 0;
  const float* pg = grads.data<float>();
  const float* pin = c.input(1).data<float>();
  const float* pout = c.input(2).data<float>();
  float* po = c.allocate_output(0).data<float>();
  std::fill(po, po + grads.num_elements(), 0.0f);
  std::vector<float> norm(depth);
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = pin + r * depth;
    const float* out = pout + r * depth;
    const float* g = pg + r * depth;
    float* dx = po + r * depth;
    lrn_norms(in, depth, a, norm.data());
    for (int64_t k = 0; k < depth; ++k) {
      const int64_t lo = std::max<int64_t>(0, k - a.radius), hi = std::min<int64_t>(depth, k + a.radius + 1);
      const float common = -2.0f * a.alpha * a.beta * out[k] / norm[k];
      for (int64_t j = lo; j < hi; ++j) {
        float d = common * in[j];
        if (j == k) d += std::pow(norm[k], -a.beta);
        dx[j] += d * g[k];
      }
    }
  }
  return Status::OK();
}

}  // namespace

void register_nn_bias_lrn_kernels(OpRegistry& reg) {
  register_kernels<BiasAddKernel>(reg, "BiasAdd", NumericTypes{});
  register_kernels<BiasAddGradKernel>(reg, "BiasAddGrad", NumericTypes{});
  reg.set_kernel("LRN", DType::kFloat32, &lrn_kernel);
  reg.set_kernel("LRNGrad", DType::kFloat32, &lrn_grad_kernel);
}

}  // namespace graphfn
