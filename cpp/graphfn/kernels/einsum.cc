// Einsum's kernel. No loop over all label combinations: every equation becomes
//   gather:  each operand as a strided view over its distinct labels (a repeated label's strides
//            add up: a diagonal; an ellipsis dim of size 1 gets stride 0: broadcasting), copied
//            (only when its layout does not already fit) into [batch, free, contracted] order,
//            with labels no one else uses summed out;
//   product: one matrix product per batch entry, [free_a, k] x [k, free_b] (kernels/gemm.h for
//            float/double, plain loops for the integers), over the threads when large;
//   scatter: the [batch, free_a, free_b] result written to the output's strided view (a
//            permutation, or a diagonal of zeros for repeated output labels).
// One operand is the same with nothing to multiply.
#include <Eigen/Core>
#include <algorithm>
#include <map>
#include <thread>
#include <type_traits>
#include <vector>

#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/gemm.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduced_precision.h"
#include "graphfn/ops/einsum_spec.h"

namespace graphfn {
namespace {

using Dims = std::vector<int64_t>;

// Arithmetic that wraps for integers (TF's integer einsum wraps; signed overflow must not be UB).
template <typename T>
inline T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <typename T>
inline T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

// dst[i0, i1, ...] = src[i0, i1, ...] over `dims`, both sides strided. Unit dims are dropped and
// dims contiguous on both sides merged; a transpose (source contiguous along an outer dim,
// destination along the last) is copied in square tiles so both sides stay in cache.
template <typename T>
void strided_assign(const T* src, Dims src_st, T* dst, Dims dst_st, Dims dims) {
  Dims d, ss, ds;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0) return;
    if (dims[i] == 1) continue;
    if (!d.empty() && ss.back() == src_st[i] * dims[i] && ds.back() == dst_st[i] * dims[i]) {
      d.back() *= dims[i];
      ss.back() = src_st[i];
      ds.back() = dst_st[i];
      continue;
    }
    d.push_back(dims[i]);
    ss.push_back(src_st[i]);
    ds.push_back(dst_st[i]);
  }
  const int rank = static_cast<int>(d.size());
  if (rank == 0) {
    *dst = *src;
    return;
  }
  // A dim where one side is contiguous while the other is not along the last dim: moved next to
  // the last one and tiled with it.
  int tile_dim = -1;
  if (rank >= 2 && (ss[rank - 1] != 1 || ds[rank - 1] != 1)) {
    const Dims& side = ss[rank - 1] != 1 ? ss : ds;
    for (int i = 0; i < rank - 1; ++i) {
      if (side[i] == 1) tile_dim = i;
    }
  }
  if (tile_dim >= 0 && tile_dim != rank - 2) {
    std::swap(d[tile_dim], d[rank - 2]);
    std::swap(ss[tile_dim], ss[rank - 2]);
    std::swap(ds[tile_dim], ds[rank - 2]);
  }
  const int outer_rank = tile_dim >= 0 ? rank - 2 : rank - 1;
  Dims index(outer_rank, 0);
  int64_t so = 0, dof = 0;
  for (;;) {
    const T* s = src + so;
    T* t = dst + dof;
    if (tile_dim >= 0) {
      constexpr int64_t kTile = 32;
      const int64_t rows = d[rank - 2], cols = d[rank - 1];
      const int64_t sr = ss[rank - 2], sc = ss[rank - 1], dr = ds[rank - 2], dc = ds[rank - 1];
      for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
        const int64_t r1 = std::min(rows, r0 + kTile);
        for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
          const int64_t c1 = std::min(cols, c0 + kTile);
          for (int64_t r = r0; r < r1; ++r) {
            for (int64_t cc = c0; cc < c1; ++cc) t[r * dr + cc * dc] = s[r * sr + cc * sc];
          }
        }
      }
    } else {
      const int64_t n = d[rank - 1], sst = ss[rank - 1], dst_step = ds[rank - 1];
      if (sst == 1 && dst_step == 1) {
        std::copy_n(s, n, t);
      } else {
        for (int64_t j = 0; j < n; ++j) t[j * dst_step] = s[j * sst];
      }
    }
    int k = outer_rank - 1;
    for (; k >= 0; --k) {
      so += ss[k];
      dof += ds[k];
      if (++index[k] < d[k]) break;
      so -= ss[k] * d[k];
      dof -= ds[k] * d[k];
      index[k] = 0;
    }
    if (k < 0) return;
  }
}

Dims contiguous_strides(const Dims& dims) {
  Dims st(dims.size());
  int64_t s = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    st[i] = s;
    s *= dims[i];
  }
  return st;
}

int64_t product(const Dims& d, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t p = 1;
  for (size_t i = from; i < std::min(to, d.size()); ++i) p *= d[i];
  return p;
}

// An operand seen through its distinct labels.
template <typename T>
struct View {
  const T* data = nullptr;
  std::map<int, std::pair<int64_t, int64_t>> by_label;  // label -> (dim, stride)
  bool has(int label) const { return by_label.count(label) > 0; }
};

template <typename T>
View<T> make_view(const Tensor& t, const std::vector<int>& labels, const std::map<int, int64_t>& sizes) {
  View<T> v;
  v.data = t.data<T>();
  const Dims st = contiguous_strides(std::vector<int64_t>(t.shape().dims()));
  for (size_t i = 0; i < labels.size(); ++i) {
    auto it = v.by_label.find(labels[i]);
    if (it == v.by_label.end()) {
      v.by_label[labels[i]] = {t.dim(static_cast<int>(i)), st[i]};
    } else {
      it->second.second += st[i];
    }
  }
  for (auto& [label, ds] : v.by_label) {  // broadcast ellipsis dims of size 1
    const int64_t want = sizes.at(label);
    if (ds.first != want) ds = {want, 0};
  }
  return v;
}

// Whether the view, read in `order`, is already the contiguous row-major array (no copy).
template <typename T>
bool is_contiguous(const View<T>& v, const std::vector<int>& order) {
  if (order.size() != v.by_label.size()) return false;
  int64_t expect = 1;
  for (size_t i = order.size(); i-- > 0;) {
    const auto& [dim, stride] = v.by_label.at(order[i]);
    if (dim != 1 && stride != expect) return false;
    expect *= dim;
  }
  return true;
}

// Rounds values in place (float values to float16/bfloat16 and back), or null.
template <typename T>
using RoundFn = void (*)(T* values, int64_t n);

// The view's elements in `order` (contiguous, into out), summed over its labels not in order;
// `round_sums`, when given, rounds those sums.
template <typename T>
void gather(const View<T>& v, const std::vector<int>& order, T* out, RoundFn<T> round_sums = nullptr) {
  Dims dims, st;
  for (int l : order) {
    dims.push_back(v.by_label.at(l).first);
    st.push_back(v.by_label.at(l).second);
  }
  const int64_t outer = product(dims);
  Dims rdims, rst;
  for (const auto& [label, ds] : v.by_label) {
    if (std::find(order.begin(), order.end(), label) != order.end()) continue;
    rdims.push_back(ds.first);
    rst.push_back(ds.second);
  }
  if (rdims.empty()) {  // array_util's copy (the Transpose kernel's): contiguous destination
    strided_copy(v.data, StridedView{0, dims, st}, out);
    return;
  }
  const int64_t inner = product(rdims);
  if (inner == 0 || outer == 0) {
    std::fill_n(out, outer, T(0));
    return;
  }
  std::vector<T> tmp(static_cast<size_t>(outer * inner));
  Dims all = dims, all_st = st;
  all.insert(all.end(), rdims.begin(), rdims.end());
  all_st.insert(all_st.end(), rst.begin(), rst.end());
  strided_copy(v.data, StridedView{0, all, all_st}, tmp.data());
  for (int64_t o = 0; o < outer; ++o) {
    const T* row = tmp.data() + o * inner;
    T s = T(0);
    if constexpr (std::is_floating_point_v<T>) {
      s = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(row, inner).sum();
    } else {
      for (int64_t j = 0; j < inner; ++j) s = wrap_add(s, row[j]);
    }
    out[o] = s;
  }
  if (round_sums) round_sums(out, outer);
}

// Writes `src` (contiguous over `labels`) to the output, whose axes carry `out_labels`
// (possibly repeated: a diagonal, everything else zero).
template <typename T>
void scatter(const T* src, const std::vector<int>& labels, const std::map<int, int64_t>& sizes,
             const std::vector<int>& out_labels, Tensor& out) {
  const Dims ost = contiguous_strides(std::vector<int64_t>(out.shape().dims()));
  std::map<int, int64_t> stride_of;
  for (size_t i = 0; i < out_labels.size(); ++i) stride_of[out_labels[i]] += ost[i];
  const bool repeated = stride_of.size() != out_labels.size();
  T* dst = out.data<T>();
  if (repeated) std::fill_n(dst, out.num_elements(), T(0));
  Dims dims, dst_st;
  for (int l : labels) {
    dims.push_back(sizes.at(l));
    dst_st.push_back(stride_of.at(l));
  }
  strided_assign(src, contiguous_strides(dims), dst, dst_st, dims);
}

template <typename T>
void batch_gemm_loops(const T* a, const T* b, T* c, int64_t batches, int64_t m, int64_t k, int64_t n, bool ta, bool tb);

// c[b] = a[b] (m x k, or k x m when ta) * b[b] (k x n, or n x k when tb), for every batch entry.
template <typename T>
void batch_gemm(const T* a, const T* b, T* c, int64_t batches, int64_t m, int64_t k, int64_t n, bool ta, bool tb) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // kernels/gemm.h: OpenBLAS over the intra-op pool (batches spread over it when small).
    gemm_batched<T>(batches, ta, tb, m, n, k, a, nullptr, b, nullptr, c);
  } else {
    batch_gemm_loops(a, b, c, batches, m, k, n, ta, tb);
  }
}

// The other types: plain loops (integer products wrap), batches split over a second thread.
template <typename T>
void batch_gemm_loops(const T* a, const T* b, T* c, int64_t batches, int64_t m, int64_t k, int64_t n, bool ta, bool tb) {
  auto one = [&](int64_t i) {
    const T* ap = a + i * m * k;
    const T* bp = b + i * k * n;
    T* cp = c + i * m * n;
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t col = 0; col < n; ++col) {
        T s = T(0);
        for (int64_t p = 0; p < k; ++p) {
          const T x = ta ? ap[p * m + r] : ap[r * k + p];
          const T y = tb ? bp[col * k + p] : bp[p * n + col];
          s = wrap_add(s, wrap_mul(x, y));
        }
        cp[r * n + col] = s;
      }
    }
  };
  // Large products are split over a second thread (TF's kernels use every core too).
  const double work = static_cast<double>(batches) * m * k * n;
  if (batches >= 2 && work >= (1 << 20)) {
    const int64_t half = batches / 2;
    std::thread helper([&] {
      for (int64_t i = half; i < batches; ++i) one(i);
    });
    for (int64_t i = 0; i < half; ++i) one(i);
    helper.join();
    return;
  }
  for (int64_t i = 0; i < batches; ++i) one(i);
}

Dims dims_of(const std::vector<int>& ls, const std::map<int, int64_t>& sizes) {
  Dims d;
  for (int l : ls) d.push_back(sizes.at(l));
  return d;
}

// The einsum of `in` (one or two operands, shapes checked by the shape function) into `out`,
// allocated with the output's shape.
// `round_sums`: how an operand's sums over its own labels are rounded before the product.
template <typename T>
Status run_einsum(const einsum::Equation& eq, const std::vector<const Tensor*>& in, Tensor& out,
                  RoundFn<T> round_sums = nullptr) {
  const int n = static_cast<int>(in.size());
  std::vector<std::vector<int>> labels(n);
  std::map<int, int64_t> sizes;
  int ellipsis_rank = 0;
  for (int i = 0; i < n; ++i) {
    int er = 0;
    GRAPHFN_RETURN_IF_ERROR(einsum::expand(eq.inputs[i], in[i]->rank(), i, &labels[i], &er));
    ellipsis_rank = std::max(ellipsis_rank, er);
    for (size_t d = 0; d < labels[i].size(); ++d) {
      int64_t& s = sizes.emplace(labels[i][d], 1).first->second;
      s = std::max(s, in[i]->dim(static_cast<int>(d)));  // the shape function checked them
    }
  }
  if (out.num_elements() == 0) return Status::OK();
  const std::vector<int> out_labels = einsum::expand_output(eq.output, ellipsis_rank);
  std::vector<int> out_unique;
  for (int l : out_labels) {
    if (std::find(out_unique.begin(), out_unique.end(), l) == out_unique.end()) out_unique.push_back(l);
  }
  const bool direct = out_unique.size() == out_labels.size();  // no diagonal to place
  if (n == 1) {
    const View<T> v = make_view<T>(*in[0], labels[0], sizes);
    if (direct) {
      gather(v, out_labels, out.data<T>());
      return Status::OK();
    }
    std::vector<T> tmp(static_cast<size_t>(product(dims_of(out_unique, sizes))));
    gather(v, out_unique, tmp.data());
    scatter(tmp.data(), out_unique, sizes, out_labels, out);
    return Status::OK();
  }
  const View<T> va = make_view<T>(*in[0], labels[0], sizes);
  const View<T> vb = make_view<T>(*in[1], labels[1], sizes);
  auto in_out = [&](int l) { return std::find(out_unique.begin(), out_unique.end(), l) != out_unique.end(); };
  std::vector<int> batch, free_a, free_b, contract;
  for (int l : out_unique) {
    if (va.has(l) && vb.has(l)) batch.push_back(l);
    else if (va.has(l)) free_a.push_back(l);
    else free_b.push_back(l);
  }
  for (const auto& entry : va.by_label) {
    if (vb.has(entry.first) && !in_out(entry.first)) contract.push_back(entry.first);
  }
  const int64_t nb = product(dims_of(batch, sizes)), m = product(dims_of(free_a, sizes));
  const int64_t k = product(dims_of(contract, sizes)), nn = product(dims_of(free_b, sizes));
  // Operand a as [batch, free_a, k] (or [batch, k, free_a]: ta), b as [batch, k, free_b] (or tb).
  std::vector<T> a_buf, b_buf;
  auto operand = [&](const View<T>& v, const std::vector<int>& mine, bool left, std::vector<T>* buf, bool* transposed) {
    std::vector<int> normal = batch, swapped = batch;
    const std::vector<int>& first = left ? mine : contract;
    const std::vector<int>& second = left ? contract : mine;
    normal.insert(normal.end(), first.begin(), first.end());
    normal.insert(normal.end(), second.begin(), second.end());
    swapped.insert(swapped.end(), second.begin(), second.end());
    swapped.insert(swapped.end(), first.begin(), first.end());
    *transposed = false;
    if (is_contiguous(v, normal)) return v.data;
    if (is_contiguous(v, swapped)) {
      *transposed = true;
      return v.data;
    }
    buf->resize(static_cast<size_t>(product(dims_of(normal, sizes))));
    gather(v, normal, buf->data(), round_sums);
    return static_cast<const T*>(buf->data());
  };
  bool ta = false, tb = false;
  const T* pa = operand(va, free_a, true, &a_buf, &ta);
  const T* pb = operand(vb, free_b, false, &b_buf, &tb);
  std::vector<int> result = batch;
  result.insert(result.end(), free_a.begin(), free_a.end());
  result.insert(result.end(), free_b.begin(), free_b.end());
  if (direct && result == out_labels) {
    batch_gemm(pa, pb, out.data<T>(), nb, m, k, nn, ta, tb);
    return Status::OK();
  }
  std::vector<T> tmp(static_cast<size_t>(nb * m * nn));
  batch_gemm(pa, pb, tmp.data(), nb, m, k, nn, ta, tb);
  scatter(tmp.data(), result, sizes, out_labels, out);
  return Status::OK();
}

// float values rounded to T (to nearest) and back.
template <typename T>
void round_through(float* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) values[i] = static_cast<float>(static_cast<T>(values[i]));
}

// float16/bfloat16: the operands widened to float (exact), the einsum run in float, rounded to T
// where TF's Einsum rounds: after summing an operand over labels only it has (TF reduces each
// operand first) and once at the end. For bfloat16 this matches TF's results (its products
// accumulate in float); TF's CPU Einsum accumulates float16 products in float16 (Eigen's
// contraction order), so long float16 contractions differ from TF's in the last bits, graphfn's
// being the more accurate (docs/dtypes.md).
template <typename T>
Status run_reduced_einsum(const einsum::Equation& eq, const std::vector<const Tensor*>& in, Tensor& out) {
  std::vector<Tensor> wide;
  std::vector<const Tensor*> wide_in;
  wide.reserve(in.size());
  for (const Tensor* t : in) {
    wide.emplace_back(DType::kFloat32, t->shape());
    const T* src = t->data<T>();
    float* dst = wide.back().data<float>();
    for (int64_t i = 0; i < t->num_elements(); ++i) dst[i] = static_cast<float>(src[i]);
    wide_in.push_back(&wide.back());
  }
  Tensor wide_out(DType::kFloat32, out.shape());
  GRAPHFN_RETURN_IF_ERROR(run_einsum<float>(eq, wide_in, wide_out, &round_through<T>));
  const float* src = wide_out.data<float>();
  T* dst = out.data<T>();
  for (int64_t i = 0; i < out.num_elements(); ++i) dst[i] = static_cast<T>(src[i]);
  return Status::OK();
}

template <typename T>
struct EinsumKernel {
  static Status compute(KernelContext& c) {
    einsum::Equation eq;
    const std::string* text = c.attrs.get_string("equation");
    GRAPHFN_RETURN_IF_ERROR(einsum::parse(text ? *text : "", &eq));
    std::vector<const Tensor*> in;
    for (int i = 0; i < c.num_inputs; ++i) in.push_back(&c.input(i));
    Tensor& out = c.allocate_output(0);
    if constexpr (kReducedFloat<T>) {
      return run_reduced_einsum<T>(eq, in, out);
    } else {
      return run_einsum<T>(eq, in, out);
    }
  }
};

}  // namespace

void register_einsum_kernels(OpRegistry& reg) {
  register_kernels<EinsumKernel>(reg, "Einsum", Concat<TypeList<float, double, int32_t, int64_t>, HalfTypes, ComplexTypes>{});
}

}  // namespace graphfn
