// StableSort (a stable LSD radix sort on order-preserving unsigned keys; std::stable_sort for
// short rows), Unique/UniqueWithCounts (first-occurrence order), LowerBound/UpperBound and
// HistogramFixedWidth.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>
#include <unordered_map>

#include "graphfn/kernels/array_util.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

// An unsigned key whose order is T's order; -0.0 and 0.0 get one key (they compare equal, and a
// stable sort keeps their order, as TF's does).
template <typename T>
auto order_key(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    if (v == T(0)) v = T(0);
    U bits;
    std::memcpy(&bits, &v, sizeof bits);
    const U sign = U(1) << (sizeof(U) * 8 - 1);
    return (bits & sign) ? U(~bits) : U(bits | sign);
  } else if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<U>(static_cast<U>(v) ^ (U(1) << (sizeof(U) * 8 - 1)));
  } else {
    return v;
  }
}

// Sorts positions [0, n) of one row by key, stably; writes the order to `order`.
template <typename U>
void radix_argsort(const U* keys, int64_t n, uint32_t* order, std::vector<U>& key_buf,
                   std::vector<uint32_t>& idx_buf) {
  key_buf.resize(2 * n);
  idx_buf.resize(n);
  U* k0 = key_buf.data();
  U* k1 = key_buf.data() + n;
  uint32_t* i0 = order;
  uint32_t* i1 = idx_buf.data();
  std::copy_n(keys, n, k0);
  for (int64_t j = 0; j < n; ++j) i0[j] = static_cast<uint32_t>(j);
  constexpr int kBits = 8;
  constexpr int kPasses = static_cast<int>(sizeof(U)) * 8 / kBits;
  // All histograms in one read of the keys.
  std::vector<int64_t> counts(static_cast<size_t>(kPasses) << kBits, 0);
  for (int64_t j = 0; j < n; ++j) {
    for (int p = 0; p < kPasses; ++p) ++counts[(p << kBits) + ((k0[j] >> (p * kBits)) & 0xff)];
  }
  bool in_order_buffer = true;  // i0 == order
  for (int p = 0; p < kPasses; ++p) {
    int64_t* count = counts.data() + (p << kBits);
    if (count[(k0[0] >> (p * kBits)) & 0xff] == n) continue;  // every key has this digit
    int64_t sum = 0;
    for (int b = 0; b < (1 << kBits); ++b) {
      const int64_t c = count[b];
      count[b] = sum;
      sum += c;
    }
    for (int64_t j = 0; j < n; ++j) {
      const int64_t dst = count[(k0[j] >> (p * kBits)) & 0xff]++;
      k1[dst] = k0[j];
      i1[dst] = i0[j];
    }
    std::swap(k0, k1);
    std::swap(i0, i1);
    in_order_buffer = !in_order_buffer;
  }
  if (!in_order_buffer) std::copy_n(i0, n, order);
}

template <typename T>
struct StableSortKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    const bool descending = c.attrs.get_bool("descending", false);
    Tensor& values = c.allocate_output(0);
    Tensor& indices = c.allocate_output(1);
    const int64_t n = in.dim(in.rank() - 1);
    if (in.num_elements() == 0) return Status::OK();
    if (n > INT32_MAX) return errors::InvalidArgument("sort: the last dimension is too large: ", n);
    const int64_t rows = in.num_elements() / n;
    const T* src = in.data<T>();
    T* out = values.data<T>();
    const bool wide_index = indices.dtype() == DType::kInt64;
    using U = decltype(order_key(T{}));
    auto sort_rows = [&](int64_t begin, int64_t end) {
      std::vector<U> keys(n), key_buf;
      std::vector<uint32_t> order(n), idx_buf;
      for (int64_t r = begin; r < end; ++r) {
        const T* row = src + r * n;
        for (int64_t j = 0; j < n; ++j) keys[j] = descending ? U(~order_key(row[j])) : order_key(row[j]);
        if (n < 512) {
          for (int64_t j = 0; j < n; ++j) order[j] = static_cast<uint32_t>(j);
          std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
        } else {
          radix_argsort<U>(keys.data(), n, order.data(), key_buf, idx_buf);
        }
        T* vrow = out + r * n;
        for (int64_t j = 0; j < n; ++j) vrow[j] = row[order[j]];
        if (wide_index) {
          int64_t* irow = indices.data<int64_t>() + r * n;
          for (int64_t j = 0; j < n; ++j) irow[j] = order[j];
        } else {
          int32_t* irow = indices.data<int32_t>() + r * n;
          for (int64_t j = 0; j < n; ++j) irow[j] = static_cast<int32_t>(order[j]);
        }
      }
    };
    if (rows > 1 && in.num_elements() >= (int64_t{1} << 16) && std::thread::hardware_concurrency() > 1) {
      std::thread helper([&] { sort_rows(rows / 2, rows); });
      sort_rows(0, rows / 2);
      helper.join();
    } else {
      sort_rows(0, rows);
    }
    return Status::OK();
  }
};

// y: the distinct values in order of first occurrence; idx: each element's position in y.
template <typename T>
struct UniqueKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const int64_t n = x.num_elements();
    const T* data = x.data<T>();
    std::unordered_map<T, int64_t> first;
    first.reserve(static_cast<size_t>(n));
    std::vector<int64_t> idx(n);
    std::vector<int64_t> uniques;  // positions of first occurrences
    std::vector<int64_t> counts;
    for (int64_t i = 0; i < n; ++i) {
      auto [it, inserted] = first.emplace(data[i], static_cast<int64_t>(uniques.size()));
      if (inserted) {
        uniques.push_back(i);
        counts.push_back(0);
      }
      idx[i] = it->second;
      ++counts[it->second];
    }
    const int64_t m = static_cast<int64_t>(uniques.size());
    const DType out_idx = c.output_dtypes[1];
    if (out_idx == DType::kInt32 && n > INT32_MAX) {
      return errors::InvalidArgument("Unique: too many elements for int32 indices: ", n);
    }
    Tensor *y, *idx_t;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{m}, &y));
    for (int64_t k = 0; k < m; ++k) y->data<T>()[k] = data[uniques[k]];
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{n}, &idx_t));
    Tensor* count_t = nullptr;
    if (c.num_outputs == 3) GRAPHFN_RETURN_IF_ERROR(c.allocate_output(2, Shape{m}, &count_t));
    visit_dtype(out_idx, TypeList<int32_t, int64_t>{}, [&](auto tag) {
      using I = decltype(tag);
      for (int64_t i = 0; i < n; ++i) idx_t->data<I>()[i] = static_cast<I>(idx[i]);
      if (count_t) {
        for (int64_t k = 0; k < m; ++k) count_t->data<I>()[k] = static_cast<I>(counts[k]);
      }
    });
    return Status::OK();
  }
};

template <typename T, bool kUpper>
struct BoundKernel {
  static Status compute(KernelContext& c) {
    const Tensor& sorted = c.input(0);
    const Tensor& values = c.input(1);
    // Checked here too: a graph step with static shapes skips the shape function.
    if (sorted.dim(0) != values.dim(0)) return errors::InvalidArgument("Leading dim_size of both tensors must match.");
    Tensor& out = c.allocate_output(0);
    const int64_t rows = sorted.dim(0), n = sorted.dim(1), m = values.dim(1);
    if (out.dtype() == DType::kInt32 && n > INT32_MAX) {
      return errors::InvalidArgument("trailing dim_size must less than INT_MAX for int32 output type, was ", n);
    }
    visit_dtype(out.dtype(), TypeList<int32_t, int64_t>{}, [&](auto tag) {
      using I = decltype(tag);
      I* dst = out.data<I>();
      for (int64_t r = 0; r < rows; ++r) {
        const T* row = sorted.data<T>() + r * n;
        const T* vals = values.data<T>() + r * m;
        for (int64_t j = 0; j < m; ++j) {
          const T* pos = kUpper ? std::upper_bound(row, row + n, vals[j]) : std::lower_bound(row, row + n, vals[j]);
          dst[r * m + j] = static_cast<I>(pos - row);
        }
      }
    });
    return Status::OK();
  }
};
template <typename T> struct LowerBoundKernel : BoundKernel<T, false> {};
template <typename T> struct UpperBoundKernel : BoundKernel<T, true> {};

template <typename T>
struct HistogramKernel {
  static Status compute(KernelContext& c) {
    const Tensor& values = c.input(0);
    const T lo = c.input(1).data<T>()[0], hi = c.input(1).data<T>()[1];
    const int64_t nbins = first_int(c.input(2));
    if (!(lo < hi)) {
      return errors::InvalidArgument("value_range should satisfy value_range[0] < value_range[1], but got '[",
                                     lo, ", ", hi, "]'");
    }
    Tensor* out_t;
    GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out_t));
    Tensor& out = *out_t;
    std::vector<int64_t> counts(nbins, 0);
    const double step = (static_cast<double>(hi) - static_cast<double>(lo)) / static_cast<double>(nbins);
    const double last = static_cast<double>(nbins - 1);
    const T* v = values.data<T>();
    for (int64_t i = 0; i < values.num_elements(); ++i) {
      const T clipped = v[i] > lo ? v[i] : lo;
      // As TF: the offset in T for floats; integers subtract in double (no overflow).
      const double offset = std::is_floating_point_v<T> ? static_cast<double>(static_cast<T>(clipped - lo))
                                                        : static_cast<double>(clipped) - static_cast<double>(lo);
      double slot = offset / step;
      if (!(slot < last)) slot = last;  // also NaN
      if (slot < 0) slot = 0;
      ++counts[static_cast<int64_t>(slot)];
    }
    visit_dtype(out.dtype(), TypeList<int32_t, int64_t>{}, [&](auto tag) {
      using I = decltype(tag);
      for (int64_t b = 0; b < nbins; ++b) out.data<I>()[b] = static_cast<I>(counts[b]);
    });
    return Status::OK();
  }
};

}  // namespace

void register_sort_kernels(OpRegistry& reg) {
  register_kernels<StableSortKernel>(reg, "StableSort", Concat<NumericTypes, WideUnsignedTypes>{});
  register_kernels<UniqueKernel>(reg, "Unique", Concat<AllTypes, WideUnsignedTypes>{});
  register_kernels<UniqueKernel>(reg, "UniqueWithCounts", Concat<AllTypes, WideUnsignedTypes>{});
  // float16/bfloat16 values are told apart by their bits, as TF's hash of them does (-0 and 0
  // are two values).
  for (DType dt : {DType::kHalf, DType::kBFloat16}) {
    reg.set_kernel("Unique", dt, &UniqueKernel<uint16_t>::compute);
    reg.set_kernel("UniqueWithCounts", dt, &UniqueKernel<uint16_t>::compute);
  }
  register_kernels<LowerBoundKernel>(reg, "LowerBound", NumericTypes{});
  register_kernels<UpperBoundKernel>(reg, "UpperBound", NumericTypes{});
  register_kernels<HistogramKernel>(reg, "HistogramFixedWidth", TypeList<int32_t, int64_t, float, double>{});
}

}  // namespace graphfn
