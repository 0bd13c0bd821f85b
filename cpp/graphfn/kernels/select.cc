// SelectV2 (tf.where(c, x, y); large outputs on the intra-op pool) and Where (tf.where(c):
// coordinates of the true elements).
#include <Eigen/Core>  // bfloat16 elements
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/parallel_loops.h"

namespace graphfn {
namespace {

// `t` itself when it already has the output's shape, else a broadcast copy of it.
Tensor broadcast_to(const Tensor& t, const Shape& shape) {
  if (t.shape() == shape) return t;
  Tensor out(t.dtype(), shape);
  if (out.num_elements() > 0) strided_copy(t, broadcast_view(t.shape(), shape), &out);
  return out;
}

Status select_kernel(KernelContext& c) {
  const Shape& shape = c.output_shapes[0];
  const Tensor cond = broadcast_to(c.input(0), shape);
  const Tensor then_t = broadcast_to(c.input(1), shape);
  const Tensor else_t = broadcast_to(c.input(2), shape);
  Tensor& out = c.allocate_output(0);
  visit_storage(out.dtype(), [&](auto tag) {
    using E = decltype(tag);
    const bool* p = cond.data<bool>();
    const E* a = then_t.data<E>();
    const E* b = else_t.data<E>();
    E* o = out.data<E>();
    const int64_t n = out.num_elements();
    if constexpr (std::is_trivially_copyable_v<E> && sizeof(E) <= 8) {
      // A bit mask per element, not a branch: with a random condition a branch per element was
      // mispredicted half the time (1M floats took 10.7 ms instead of 0.4); this loop vectorises.
      using U = std::conditional_t<sizeof(E) == 1, uint8_t,
                std::conditional_t<sizeof(E) == 2, uint16_t, std::conditional_t<sizeof(E) == 4, uint32_t, uint64_t>>>;
      static_assert(sizeof(U) == sizeof(E));
      parallel_elementwise(o, n, kCheapElementsPerShard, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          U x, y;
          std::memcpy(&x, a + i, sizeof(U));
          std::memcpy(&y, b + i, sizeof(U));
          const U mask = static_cast<U>(U(0) - static_cast<U>(p[i]));
          const U r = static_cast<U>((x & mask) | (y & ~mask));
          std::memcpy(o + i, &r, sizeof(U));
        }
      });
    } else {
      parallel_elementwise(o, n, kCheapElementsPerShard, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) o[i] = p[i] ? a[i] : b[i];
      });
    }
  });
  return Status::OK();
}

template <typename T>
struct WhereKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    // TF's kernel has cases for ranks 1 to 8 only.
    if (x.rank() > 8) return errors::InvalidArgument("WhereOp : Unhandled input dimensions: ", x.rank());
    const T* p = x.data<T>();
    const int64_t n = x.num_elements();
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) count += p[i] != T(0);
    const int rank = x.rank();
    Tensor* out;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{count, rank}, &out));
    int64_t* coords = out->data<int64_t>();
    std::vector<int64_t> index(rank, 0);  // row-major position of element i
    for (int64_t i = 0; i < n; ++i) {
      if (p[i] != T(0)) coords = std::copy(index.begin(), index.end(), coords);
      for (int d = rank - 1; d >= 0 && ++index[d] == x.dim(d); --d) index[d] = 0;
    }
    return Status::OK();
  }
};

}  // namespace

void register_select_kernels(OpRegistry& reg) {
  register_for_all_dtypes(reg, "SelectV2", &select_kernel);
  register_kernels<WhereKernel>(reg, "Where", Concat<TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool>,
                                                     TypeList<Eigen::bfloat16>, ComplexTypes, WideUnsignedTypes>{});
  // TF 2.21 registers float16 but refuses it when the kernel runs.
  reg.set_kernel("Where", DType::kHalf, [](KernelContext&) {
    return errors::Unimplemented("No WhereOp available for float16/half type on CPU; dying in CPU WhereOp to avoid "
                                 "silently creating costly copies from device.");
  });
}

}  // namespace graphfn
