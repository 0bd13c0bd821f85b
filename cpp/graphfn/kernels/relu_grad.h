// TF's ReluGrad, element by element: out = g * (f > 0 ? 1 : 0). A product, as TF's kernel: a NaN
// or inf gradient where the feature is not positive gives NaN, a negative one -0. Used by the
// ReluGrad kernel and by MaxPoolGrad with the ReluGrad fused in (passes/activation_fusion.h).
#pragma once
#include <cstdint>
#include <type_traits>

namespace graphfn {

// `out` may be `g` (in place).
template <typename T>
void relu_grad(const T* g, const T* f, T* out, int64_t n) {
  int64_t i = 0;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // Vector code computing both g and g * 0: GCC does not vectorise the scalar loop below (it
    // computes the product only where f <= 0, as it might trap), and its branch per element
    // costs 5 ns on random signs.
    constexpr int64_t kLanes = 32 / sizeof(T);
    typedef T Vec __attribute__((vector_size(32), aligned(sizeof(T))));
    for (; i + kLanes <= n; i += kLanes) {
      const Vec gv = *reinterpret_cast<const Vec*>(g + i);
      const Vec fv = *reinterpret_cast<const Vec*>(f + i);
      *reinterpret_cast<Vec*>(out + i) = fv > Vec{} ? gv : gv * Vec{};
    }
  }
  for (; i < n; ++i) out[i] = f[i] > T(0) ? g[i] : static_cast<T>(g[i] * T(0));
}

}  // namespace graphfn
