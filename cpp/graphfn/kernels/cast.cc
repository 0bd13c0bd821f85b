// Cast: element-wise dtype conversion between every pair of numeric/bool dtypes, with TF's
// results on x86 CPUs (TF's Eigen kernels are plain C++ conversions compiled for x86).
#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/parallel_loops.h"
#include "graphfn/kernels/reduced_precision.h"

namespace graphfn {
namespace {

using CastableTypes = Concat<TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool>, HalfTypes,
                             ComplexTypes, WideUnsignedTypes>;


template <typename T>
constexpr bool kIsReducedFloat = std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;

// x86's truncating conversions (cvttss2si and friends): an out-of-range or NaN input gives the
// "integer indefinite" value, the most negative one. C++ leaves these casts undefined, so they
// are spelled out here.
inline int32_t x86_to_int32(double v) {
  return v > -2147483649.0 && v < 2147483648.0 ? static_cast<int32_t>(v) : std::numeric_limits<int32_t>::min();
}
inline int64_t x86_to_int64(double v) {
  return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? static_cast<int64_t>(v)
                                                                   : std::numeric_limits<int64_t>::min();
}

// A real floating value as integer type Dst, as TF's compiled casts give it: types up to 32 bits
// signed convert through int32 and keep the low bits (cast(300.7, uint8) is 44, cast(-1.2,
// uint8) is 255); uint32 and the 64-bit types convert through int64 (cast(-1.0, uint64) wraps).
template <typename Dst>
Dst float_to_integer(double v) {
  if constexpr (sizeof(Dst) < 4 || std::is_same_v<Dst, int32_t>) {
    return static_cast<Dst>(x86_to_int32(v));
  } else {
    return static_cast<Dst>(x86_to_int64(v));
  }
}

template <typename Src, typename Dst>
Dst cast_one(Src v) {
  if constexpr (IsComplex<Src>::value) {
    if constexpr (IsComplex<Dst>::value) {
      return Dst(static_cast<typename Dst::value_type>(v.real()), static_cast<typename Dst::value_type>(v.imag()));
    } else {
      // The imaginary part is dropped, also for bool (TF: cast(1j, bool) is False).
      return cast_one<typename Src::value_type, Dst>(v.real());
    }
  } else if constexpr (IsComplex<Dst>::value) {
    return Dst(cast_one<Src, typename Dst::value_type>(v), 0);
  } else if constexpr (std::is_same_v<Dst, bool>) {
    return v != Src(0);
  } else if constexpr (kIsReducedFloat<Src>) {
    return cast_one<float, Dst>(static_cast<float>(v));  // exact; then float's rules
  } else if constexpr (kIsReducedFloat<Dst>) {
    // Eigen rounds through float (a double rounds twice, as in TF).
    return Dst(static_cast<float>(v));
  } else if constexpr (std::is_floating_point_v<Src> && std::is_integral_v<Dst>) {
    return float_to_integer<Dst>(static_cast<double>(v));
  } else {
    return static_cast<Dst>(v);
  }
}

// One conversion loop per dtype pair; the threading around it is compiled once (below).
template <typename Src, typename Dst>
void cast_elements(const void* in, void* out, int64_t begin, int64_t end) {
  const Src* x = static_cast<const Src*>(in);
  Dst* y = static_cast<Dst*>(out);
  for (int64_t i = begin; i < end; ++i) y[i] = cast_one<Src, Dst>(x[i]);
}

using CastElementsFn = void (*)(const void* in, void* out, int64_t begin, int64_t end);

// parallel_elementwise (kernels/parallel_loops.h) over `out`'s elements: the shards start on
// 64-byte boundaries of the output, whatever its element size.
template <typename Dst>
GRAPHFN_SHARED_DRIVER void cast_in_shards(const void* in, Dst* out, int64_t n, CastElementsFn cast) {
  parallel_elementwise(out, n, kCheapElementsPerShard, [&](int64_t b, int64_t e) { cast(in, out, b, e); });
}

template <typename Src>
struct CastKernel {
  static Status compute(KernelContext& c) {
    const DType dst = c.type_attr("DstT");
    const Tensor& x = c.input(0);
    if (dst == x.dtype()) {
      c.set_output(0, x);
      return Status::OK();
    }
    if (dst == DType::kString) {
      return errors::Unimplemented("Cast ", dtype_tf_string(x.dtype()), " to string is not supported");
    }
    Tensor& y = c.allocate_output(0);
    const bool ok = visit_dtype(dst, CastableTypes{}, [&](auto tag) {
      using Dst = decltype(tag);
      cast_in_shards(x.raw_data(), y.data<Dst>(), x.num_elements(), &cast_elements<Src, Dst>);
    });
    if (!ok) {
      return errors::Unimplemented("Cast ", dtype_tf_string(x.dtype()), " to ", dtype_tf_string(dst),
                                   " is not supported");
    }
    return Status::OK();
  }
};

Status cast_string(KernelContext& c) {
  const DType dst = c.type_attr("DstT");
  if (dst == DType::kString) {
    c.set_output(0, c.input(0));
    return Status::OK();
  }
  return errors::Unimplemented("Cast string to ", dtype_tf_string(dst), " is not supported");
}

}  // namespace

void register_cast_kernels(OpRegistry& reg) {
  register_kernels<CastKernel>(reg, "Cast", CastableTypes{});
  reg.set_kernel("Cast", DType::kString, &cast_string);
}

}  // namespace graphfn
