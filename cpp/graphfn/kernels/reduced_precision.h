// The element types that compute in another type: float16 and bfloat16 compute each element in
// float and round the result once, as TF's Eigen kernels do. Shared by the kernels of the wider
// dtypes (dtype_*.cc, math_cwise_kernels.cc, cast.cc), so a unity batch holding several of them
// sees one definition.
#pragma once

#include <complex>
#include <type_traits>

#include <Eigen/Core>

namespace graphfn {

template <typename T>
inline constexpr bool kReducedFloat = std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;

// The type an element of T is computed in.
template <typename T>
using ComputeType = std::conditional_t<kReducedFloat<T>, float, T>;

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

}  // namespace graphfn
