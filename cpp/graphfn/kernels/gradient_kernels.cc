// Kernels of ops/gradient_ops.cc.
#include "graphfn/ir/shape_inference.h"
#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/relu_grad.h"
#include "graphfn/kernels/parallel_loops.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/kernels/strided_slice_inputs.h"

namespace graphfn {
namespace {

Status stop_gradient_kernel(KernelContext& c) {
  c.set_output(0, c.input(0));
  return Status::OK();
}

// The axes each operand of a broadcasting op was stretched along (core/shape.h).
template <typename T>
struct BroadcastGradientArgsKernel {
  static Status compute(KernelContext& c) {
    std::vector<int64_t> s[2], r[2];
    for (int i = 0; i < 2; ++i) GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(c.input(i), &s[i]));
    GRAPHFN_RETURN_IF_ERROR(broadcast_gradient_axes(s[0], s[1], &r[0], &r[1]));
    for (int i = 0; i < 2; ++i) {
      Tensor* out = nullptr;
      GRAPHFN_RETURN_IF_ERROR(c.allocate_output(i, Shape{static_cast<int64_t>(r[i].size())}, &out));
      std::transform(r[i].begin(), r[i].end(), out->data<T>(), [](int64_t v) { return static_cast<T>(v); });
    }
    return Status::OK();
  }
};

Status broadcast_to_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.shape() == c.output_shapes[0]) {
    c.set_output(0, x);
    return Status::OK();
  }
  Tensor* out = nullptr;
  GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
  // The binary broadcasting loop with x as both operands: each element is x's, broadcast.
  visit_storage(x.dtype(), [&](auto e) {
    using E = decltype(e);
    broadcast_binary_loop<E, E>(x, x, *out, [](const E& a, const E&) { return a; });
  });
  return Status::OK();
}

// Zeros of the input's shape, with dy written into the box the forward slice read.
template <typename T>
struct StridedSliceGradKernel {
  static Status compute(KernelContext& c) {
    StridedSliceInputs spec;
    GRAPHFN_RETURN_IF_ERROR(read_strided_slice_inputs(c, &spec));
    const Shape& shape = c.output_shapes[0];
    StridedSliceResult r;
    GRAPHFN_RETURN_IF_ERROR(spec.slice_of(shape, &r));
    // Plans may skip the shape function (static shapes, values unknown when traced): check here.
    if (r.output_shape.num_elements() != c.input(4).num_elements()) {
      return errors::InvalidArgument("shape of dy was ", c.input(4).shape(), " instead of ", r.output_shape);
    }
    Tensor* out = nullptr;
    GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
    T* po = out->data<T>();
    std::fill(po, po + out->num_elements(), T(0));
    const T* pd = c.input(4).data<T>();
    const int64_t n = c.input(4).num_elements();
    const int rank = shape.rank();
    if (n == 0) return Status::OK();
    // An odometer over the box: index[d] < sizes[d], offset = sum (begin + index * stride) * row stride.
    const std::vector<int64_t> row = row_major_strides(shape);
    std::vector<int64_t> index(rank, 0);
    int64_t offset = 0;
    for (int d = 0; d < rank; ++d) offset += r.begin[d] * row[d];
    for (int64_t k = 0; k < n; ++k) {
      po[offset] = pd[k];
      for (int d = rank - 1; d >= 0; --d) {
        offset += r.strides[d] * row[d];
        if (++index[d] < r.sizes[d]) break;
        offset -= r.strides[d] * row[d] * r.sizes[d];
        index[d] = 0;
      }
    }
    return Status::OK();
  }
};

// out[ids[i], ...] += data[i, ...]; negative ids are dropped (as TF), ids past the end an error.
template <typename T>
struct AddNKernel {
  static Status compute(KernelContext& c) {
    Tensor& out = c.allocate_output(0);
    T* po = out.data<T>();
    const int64_t n = out.num_elements();
    const T* first = c.input(0).data<T>();
    std::copy(first, first + n, po);
    for (int k = 1; k < c.num_inputs; ++k) {
      const T* pk = c.input(k).data<T>();
      for (int64_t i = 0; i < n; ++i) po[i] = functors::wrap_add(po[i], pk[i]);  // integers wrap, as in TF
    }
    return Status::OK();
  }
};

// gradients * (features > 0 ? 1 : 0) (kernels/relu_grad.h; threaded over large tensors, element
// by element, so any split gives the same bits).
template <typename T>
struct ReluGradKernel {
  static Status compute(KernelContext& c) {
    Tensor& out = c.allocate_output(0);
    const T* g = c.input(0).data<T>();
    const T* f = c.input(1).data<T>();
    T* po = out.data<T>();
    parallel_elementwise(po, out.num_elements(), kCheapElementsPerShard, [&](int64_t b, int64_t e) {
      relu_grad(g + b, f + b, po + b, e - b);
    });
    return Status::OK();
  }
};

template <typename T>
struct InvertPermutationKernel {
  static Status compute(KernelContext& c) {
    std::vector<int64_t> perm;
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(0), &perm));
    const int64_t n = static_cast<int64_t>(perm.size());
    Tensor& out = c.allocate_output(0);
    T* po = out.data<T>();
    std::vector<bool> seen(perm.size(), false);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t d = perm[i];
      if (d < 0 || d >= n) return errors::InvalidArgument(d, " is not between 0 and ", n);
      if (seen[d]) return errors::InvalidArgument(d, " is duplicated in the input.");
      seen[d] = true;
      po[d] = static_cast<T>(i);
    }
    return Status::OK();
  }
};

template <typename T>
struct ConcatOffsetKernel {
  static Status compute(KernelContext& c) {
    std::vector<int64_t> axis_value, first;
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(0), &axis_value));
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &first));
    const int64_t rank = static_cast<int64_t>(first.size());
    int64_t axis = axis_value.empty() ? 0 : axis_value[0];
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) {
      return errors::InvalidArgument("Concat dim is out of range: ", axis_value.empty() ? 0 : axis_value[0], " vs. ", rank);
    }
    auto text = [](const std::vector<int64_t>& v) {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + std::to_string(v[i]);
      return s + "]";
    };
    int64_t offset = 0;
    for (int i = 1; i < c.num_inputs; ++i) {
      std::vector<int64_t> dims;
      GRAPHFN_RETURN_IF_ERROR(int_values(c.input(i), &dims));
      if (static_cast<int64_t>(dims.size()) != rank) {
        return errors::InvalidArgument("input ", i - 1, " should contain ", rank, " elements, but got ", dims.size());
      }
      for (int64_t d = 0; d < rank; ++d) {
        if (d != axis && dims[d] != first[d]) {
          return errors::InvalidArgument("All dimensions except ", axis, " must match. Input ", i - 1, " has shape ",
                                         text(dims), " and doesn't match input 0 with shape ", text(first), ".");
        }
      }
      Tensor* out = nullptr;
      GRAPHFN_RETURN_IF_ERROR(c.allocate_output(i - 1, Shape{rank}, &out));
      T* po = out->data<T>();
      for (int64_t d = 0; d < rank; ++d) po[d] = static_cast<T>(d == axis ? offset : 0);
      offset += dims[axis];
    }
    return Status::OK();
  }
};

}  // namespace

void register_gradient_kernels(OpRegistry& reg) {
  register_kernels<AddNKernel>(reg, "AddN", NumericTypes{});
  register_kernels<ReluGradKernel>(reg, "ReluGrad", NumericTypes{});
  register_kernels<InvertPermutationKernel>(reg, "InvertPermutation", TypeList<int32_t, int64_t>{});
  register_kernels<ConcatOffsetKernel>(reg, "ConcatOffset", TypeList<int32_t, int64_t>{});
  register_for_all_dtypes(reg, "StopGradient", &stop_gradient_kernel);
  register_kernels<BroadcastGradientArgsKernel>(reg, "BroadcastGradientArgs", TypeList<int32_t, int64_t>{});
  register_for_all_dtypes(reg, "BroadcastTo", &broadcast_to_kernel);
  register_kernels<StridedSliceGradKernel>(reg, "StridedSliceGrad", NumericTypes{});
  // The kernel only moves elements (and zero is all bits clear): other dtypes reuse the
  // instantiation of their size.
  for (DType dt : {DType::kHalf, DType::kBFloat16, DType::kUInt16}) reg.set_kernel("StridedSliceGrad", dt, &StridedSliceGradKernel<int16_t>::compute);
  reg.set_kernel("StridedSliceGrad", DType::kUInt32, &StridedSliceGradKernel<int32_t>::compute);
  for (DType dt : {DType::kUInt64, DType::kComplex64}) reg.set_kernel("StridedSliceGrad", dt, &StridedSliceGradKernel<int64_t>::compute);
  reg.set_kernel("StridedSliceGrad", DType::kBool, &StridedSliceGradKernel<uint8_t>::compute);
  reg.set_kernel("StridedSliceGrad", DType::kComplex128, &StridedSliceGradKernel<std::complex<double>>::compute);
}

}  // namespace graphfn
