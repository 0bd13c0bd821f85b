// Kernels of ops/nn_ops.cc. Every op works row by row over the last dimension with one
// numerically stable pass: m = max(row), s = sum(exp(x - m)), log_softmax = x - m - log(s).
// float rows go through the vectorised loops of kernels/float_math.h (three passes over a row,
// AVX-512 where the CPU has it), double rows through Eigen's arrays (a scalar std::exp loop made
// Softmax of 1000x1000 five times slower than TF's).
// float16 and bfloat16 rows are widened to float, computed by the same row code and rounded once
// (TF's kernels compute these in the reduced type step by step, so their values are a few units
// in the last place from these).
#include <cmath>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/float_math.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/parallel_loops.h"
#include "graphfn/kernels/reduced_precision.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

// A row of T as its compute type C: the row itself when T is C, else widened into `scratch`.
template <typename T, typename C = ComputeType<T>>
const C* compute_row(const T* row, int64_t n, std::vector<C>& scratch) {
  if constexpr (std::is_same_v<T, C>) {
    return row;
  } else {
    scratch.resize(n);
    for (int64_t i = 0; i < n; ++i) scratch[i] = static_cast<C>(row[i]);
    return scratch.data();
  }
}

// Where a row of output T is computed: the output row itself when T is C, else `scratch`, which
// store_row then rounds into the output.
template <typename T, typename C = ComputeType<T>>
C* compute_output_row(T* out, int64_t n, std::vector<C>& scratch) {
  if constexpr (std::is_same_v<T, C>) {
    return out;
  } else {
    scratch.resize(n);
    return scratch.data();
  }
}

template <typename T, typename C = ComputeType<T>>
void store_row(const C* computed, int64_t n, T* out) {
  if constexpr (!std::is_same_v<T, C>) {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(computed[i]);
  }
}

// Writes log_softmax(row) into out (n elements).
template <typename T>
using ConstRow = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using Row = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;

// log_softmax(row) into out (n elements). float rows (float16 and bfloat16 ones too, widened)
// take the vectorised loop of kernels/float_math.h, whose results do not depend on where the
// row lies in memory (Eigen's sums do: they start at a 32-byte boundary).
template <typename T>
void log_softmax_row(const T* row, int64_t n, T* out) {
#if GRAPHFN_HAVE_SIMD_FLOAT
  if constexpr (std::is_same_v<T, float>) {
    float_math::log_softmax_rows(row, out, 1, n);
    return;
  }
#endif
  ConstRow<T> x(row, n);
  Row<T> o(out, n);
  const T m = x.maxCoeff();
  o = x - m;
  const T log_s = std::log(o.exp().sum());
  o -= log_s;
}

template <typename T>
void exp_in_place(T* row, int64_t n) {
#if GRAPHFN_HAVE_SIMD_FLOAT
  if constexpr (std::is_same_v<T, float>) {
    float_math::exp(row, row, n);
    return;
  }
#endif
  Row<T>(row, n) = Row<T>(row, n).exp();
}

// Softmax is exp(x - m) * (1 / s), like TF's kernel (closer to TF's values than exp(log_softmax)).
// A row whose sum is NaN (it holds NaN or +inf) is NaN where exp(x - m) is and 0 elsewhere in TF's
// float32 and bfloat16 kernels (oneDNN's), all NaN in its float16 and double ones (Eigen's).
template <typename Stored, typename T>
void softmax_row(const T* row, int64_t n, T* out) {
  constexpr bool kNanSumAsInf = std::is_same_v<Stored, float> || std::is_same_v<Stored, Eigen::bfloat16>;
#if GRAPHFN_HAVE_SIMD_FLOAT
  if constexpr (std::is_same_v<T, float>) {
    float_math::softmax_rows(row, out, 1, n, kNanSumAsInf);
    return;
  }
#endif
  ConstRow<T> x(row, n);
  Row<T> o(out, n);
  o = (x - x.maxCoeff()).exp();
  const T sum = o.sum();
  o *= kNanSumAsInf && std::isnan(sum) ? T(0) : T(1) / sum;
}

template <typename T, bool kLog>
struct SoftmaxKernel {
  static Status compute(KernelContext& c) {
    using C = ComputeType<T>;
    const Tensor& x = c.input(0);
    Tensor& out = c.allocate_output(0);
    const int64_t n = x.dim(x.rank() - 1);
    if (n == 0) return Status::OK();
    const int64_t rows = x.num_elements() / n;
    // Rows are independent: large inputs split them over the intra-op pool.
#if GRAPHFN_HAVE_SIMD_FLOAT
    if constexpr (std::is_same_v<T, float>) {  // all of a shard's rows in one call
      parallel_rows(rows, n, kCostlyElementsPerShard, [&](int64_t first, int64_t last) {
        const float* in = x.data<float>() + first * n;
        float* o = out.data<float>() + first * n;
        if (kLog) {
          float_math::log_softmax_rows(in, o, last - first, n);
        } else {
          float_math::softmax_rows(in, o, last - first, n, /*nan_sum_as_inf=*/true);
        }
      });
      return Status::OK();
    }
#endif
    parallel_rows(rows, n, kCostlyElementsPerShard, [&](int64_t first, int64_t last) {
      std::vector<C> in_scratch, out_scratch;
      for (int64_t r = first; r < last; ++r) {
        const C* row = compute_row(x.data<T>() + r * n, n, in_scratch);
        C* o = compute_output_row(out.data<T>() + r * n, n, out_scratch);
        if (kLog) {
          log_softmax_row(row, n, o);
        } else {
          softmax_row<T>(row, n, o);
        }
        store_row(o, n, out.data<T>() + r * n);
      }
    });
    return Status::OK();
  }
};
template <typename T>
using Softmax = SoftmaxKernel<T, false>;
template <typename T>
using LogSoftmax = SoftmaxKernel<T, true>;

// loss[r] = -log_softmax[r][label[r]]; backprop = softmax - one_hot(label).
template <typename T>
struct SparseXentKernel {
  static Status compute(KernelContext& c) {
    const Tensor& f = c.input(0);
    std::vector<int64_t> labels;
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &labels));
    const int64_t rows = f.dim(0), n = f.dim(1);
    for (int64_t r = 0; r < rows; ++r) {
      if (labels[r] < 0 || labels[r] >= n) {
        std::string all;
        for (int64_t v : labels) all += " " + std::to_string(v);
        return errors::InvalidArgument("Received a label value of ", labels[r], " which is outside the valid range of [0, ",
                                       n, ").  Label values:", all);
      }
    }
    using C = ComputeType<T>;
    T* loss = c.allocate_output(0).data<T>();
    T* back = c.allocate_output(1).data<T>();
    const T* pf = f.data<T>();
    std::vector<C> in_scratch, out_scratch;
    for (int64_t r = 0; r < rows; ++r) {
      if (n == 0) {
        loss[r] = T(0);
        continue;
      }
      C* b = compute_output_row(back + r * n, n, out_scratch);
      log_softmax_row(compute_row(pf + r * n, n, in_scratch), n, b);
      loss[r] = static_cast<T>(C(0) - b[labels[r]]);  // +0.0 for a perfect prediction, as TF (not -0.0)
      exp_in_place(b, n);
      b[labels[r]] -= 1;
      store_row(b, n, back + r * n);
    }
    return Status::OK();
  }
};

// loss[r] = -sum(labels[r] * log_softmax[r]); backprop = softmax - labels. Labels broadcast
// along a dimension of size 1.
template <typename T>
struct XentKernel {
  static Status compute(KernelContext& c) {
    const Tensor& f = c.input(0);
    const Tensor& l = c.input(1);
    const int64_t rows = f.dim(0), n = f.dim(1);
    const int64_t lr = l.rank() == 2 ? l.dim(0) : 1, lc = l.rank() >= 1 ? l.dim(l.rank() - 1) : 1;
    using C = ComputeType<T>;
    T* loss = c.allocate_output(0).data<T>();
    T* back = c.allocate_output(1).data<T>();
    const T* pf = f.data<T>();
    const T* pl = l.data<T>();
    std::vector<C> in_scratch, label_scratch, out_scratch;
    for (int64_t r = 0; r < rows; ++r) {
      C* b = compute_output_row(back + r * n, n, out_scratch);
      const C* lab = compute_row(pl + (lr == 1 ? 0 : r) * lc, lc, label_scratch);
      if (n > 0) log_softmax_row(compute_row(pf + r * n, n, in_scratch), n, b);
      Row<C> br(b, n);
      if (lc == 1) {  // one label broadcast along the row
        loss[r] = static_cast<T>(-(lab[0] * br.sum()));
        br = br.exp() - lab[0];
      } else {
        ConstRow<C> y(lab, n);
        loss[r] = static_cast<T>(-(y * br).sum());
        br = br.exp() - y;
      }
      store_row(b, n, back + r * n);
    }
    return Status::OK();
  }
};

}  // namespace

void register_softmax_kernels(OpRegistry& reg) {
  using SoftmaxTypes = Concat<FloatTypes, HalfTypes>;
  register_kernels<Softmax>(reg, "Softmax", SoftmaxTypes{});
  register_kernels<LogSoftmax>(reg, "LogSoftmax", SoftmaxTypes{});
  register_kernels<SparseXentKernel>(reg, "SparseSoftmaxCrossEntropyWithLogits", SoftmaxTypes{});
  register_kernels<XentKernel>(reg, "SoftmaxCrossEntropyWithLogits", SoftmaxTypes{});
}

}  // namespace graphfn
