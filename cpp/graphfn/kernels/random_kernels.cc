// Random kernels: one fill loop over Philox blocks, parameterised by a distribution that turns
// kWords random 32-bit words into kValues samples (kWords divides 4, the words in one block).
// Element i always comes from the same bits of the stream, so results depend only on the seeds
// and the call sequence.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/philox.h"
#include "graphfn/kernels/random_distributions.h"
#include "graphfn/kernels/random_streams.h"

namespace graphfn {
namespace {

using random_dist::Normal;
using random_dist::Uniform;
using random_dist::UniformInt;

// TF's out-of-memory error for an output too large to allocate.
Status allocate(KernelContext& c, Tensor** out) {
  const Status s = c.allocate_output(0, c.output_shapes[0], out);
  if (s.code() != Code::kResourceExhausted) return s;
  return errors::ResourceExhausted("OOM when allocating tensor with shape", c.output_shapes[0], " and type ",
                                   dtype_tf_string(c.output_dtypes[0]),
                                   " on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu");
}

template <template <typename> class Dist>
struct RandomKernel {
  template <typename T>
  struct Kernel {
    static constexpr int kGroups = 4 / Dist<T>::kWords;  // distribution calls per Philox block
    static constexpr int kPerBlock = kGroups * Dist<T>::kValues;

    static Status compute(KernelContext& c) {
      Tensor* out = nullptr;
      if (c.output_shapes[0].num_elements() == 0) return allocate(c, &out);
      Dist<T> dist;
      GRAPHFN_RETURN_IF_ERROR(Dist<T>::make(c, &dist));
      GRAPHFN_RETURN_IF_ERROR(allocate(c, &out));
      const int64_t n = out->num_elements();
      const uint64_t blocks = static_cast<uint64_t>((n + kPerBlock - 1) / kPerBlock);
      const philox::Stream stream =
          reserve_random_blocks(c, c.attrs.get_int("seed", 0), c.attrs.get_int("seed2", 0), blocks);
      T* data = out->data<T>();
      T values[kPerBlock];
      for (uint64_t b = 0; b < blocks; ++b) {
        const philox::Block bits = stream.block(b);
        for (int g = 0; g < kGroups; ++g) dist(&bits[g * Dist<T>::kWords], &values[g * Dist<T>::kValues]);
        const int64_t start = static_cast<int64_t>(b) * kPerBlock;
        std::copy_n(values, std::min<int64_t>(kPerBlock, n - start), data + start);
      }
      return Status::OK();
    }
  };
};

template <typename T>
using UniformKernel = RandomKernel<Uniform>::Kernel<T>;
template <typename T>
using NormalKernel = RandomKernel<Normal>::Kernel<T>;
template <typename T>
using UniformIntKernel = RandomKernel<UniformInt>::Kernel<T>;

}  // namespace

void register_random_kernels(OpRegistry& reg) {
  register_kernels<UniformKernel>(reg, "RandomUniform", FloatTypes{});
  register_kernels<NormalKernel>(reg, "RandomStandardNormal", FloatTypes{});
  register_kernels<UniformIntKernel>(reg, "RandomUniformInt", TypeList<int32_t, int64_t>{});
}

}  // namespace graphfn
