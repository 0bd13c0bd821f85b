// Kernels that create tensors: Fill, ZerosLike, OnesLike, Eye, Range, OneHot. Output sizes come
// from user data, so outputs are allocated with allocate_checked (an OOM is a Status, not a throw).
#include <Eigen/Core>  // float16/bfloat16 elements

#include "graphfn/kernels/array_util.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

Status fill_with(KernelContext& c, const Tensor& scalar) {
  Tensor* out;
  GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
  visit_storage(out->dtype(), [&](auto tag) {
    using E = decltype(tag);
    std::fill_n(out->data<E>(), out->num_elements(), *scalar.data<E>());
  });
  return Status::OK();
}

Status fill_kernel(KernelContext& c) { return fill_with(c, c.input(1)); }

template <typename T>
T one_value() {
  if constexpr (std::is_same_v<T, bool>) return true;
  else return T(1);
}

template <typename T>
struct ZerosLikeKernel {
  static Status compute(KernelContext& c) { return fill_with(c, Tensor::scalar<T>(T())); }
};

template <typename T>
struct OnesLikeKernel {
  static Status compute(KernelContext& c) { return fill_with(c, Tensor::scalar<T>(one_value<T>())); }
};

template <typename T>
struct EyeKernel {
  static Status compute(KernelContext& c) {
    Tensor* out;
    GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
    const Shape& s = out->shape();
    const int64_t rows = s.dim(s.rank() - 2), cols = s.dim(s.rank() - 1);
    const int64_t matrices = dims_product(s, 0, s.rank() - 2), diag = std::min(rows, cols);
    T* p = out->data<T>();
    std::fill_n(p, out->num_elements(), T());
    for (int64_t m = 0; m < matrices; ++m) {
      for (int64_t i = 0; i < diag; ++i) p[(m * rows + i) * cols + i] = one_value<T>();
    }
    return Status::OK();
  }
};

// start + i * delta, rounded after the product as TF does (no fused multiply-add) and wrapping
// for integers (values stay in [start, limit), but i * delta alone may not fit).
template <typename T>
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("fp-contract=off")))
#endif
T range_value(T start, T delta, int64_t i) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(start) + static_cast<U>(static_cast<U>(i) * static_cast<U>(delta)));
  } else {
    const T step = static_cast<T>(i) * delta;
    return start + step;
  }
}

template <typename T>
struct RangeKernel {
  static Status compute(KernelContext& c) {
    Tensor* out;
    GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
    const T start = *c.input(0).data<T>(), delta = *c.input(2).data<T>();
    T* p = out->data<T>();
    for (int64_t i = 0; i < out->num_elements(); ++i) p[i] = range_value(start, delta, i);
    return Status::OK();
  }
};

// Output = indices' shape with `depth` inserted at `axis`: [prefix, depth, suffix], where the
// indices are [prefix, suffix]. Fill with off_value, then set one on_value per valid index.
Status one_hot_kernel(KernelContext& c) {
  const Tensor& indices_t = c.input(0);
  std::vector<int64_t> indices;
  GRAPHFN_RETURN_IF_ERROR(int_values(indices_t, &indices));
  const int64_t depth = *c.input(1).data<int32_t>();
  int64_t axis = c.attrs.get_int("axis", -1);
  if (axis == -1) axis = indices_t.rank();
  const int64_t suffix = dims_product(indices_t.shape(), static_cast<int>(axis), indices_t.rank());
  GRAPHFN_RETURN_IF_ERROR(fill_with(c, c.input(3)));
  Tensor& out = c.outputs[0];
  visit_storage(out.dtype(), [&](auto tag) {
    using E = decltype(tag);
    E* p = out.data<E>();
    const E on = *c.input(2).data<E>();
    for (size_t k = 0; k < indices.size(); ++k) {
      const int64_t idx = indices[k];
      if (idx < 0 || idx >= depth) continue;
      const int64_t prefix = static_cast<int64_t>(k) / suffix, s = static_cast<int64_t>(k) % suffix;
      p[(prefix * depth + idx) * suffix + s] = on;
    }
  });
  return Status::OK();
}

}  // namespace

void register_fill_kernels(OpRegistry& reg) {
  using OnesTypes = TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool>;
  register_for_all_dtypes(reg, "Fill", &fill_kernel);
  register_kernels<ZerosLikeKernel>(reg, "ZerosLike", AllTypes{});
  register_kernels<OnesLikeKernel>(reg, "OnesLike", OnesTypes{});
  // tf.eye takes every number type (TF builds it from ones and MatrixDiag).
  register_kernels<EyeKernel>(reg, "Eye", Concat<OnesTypes, HalfTypes, ComplexTypes, WideUnsignedTypes>{});
  register_kernels<RangeKernel>(reg, "Range", TypeList<float, double, int32_t, int64_t>{});
  register_for_all_dtypes(reg, "OneHot", &one_hot_kernel);
}

}  // namespace graphfn
