// Gradients of the sparse segment reductions (ops/sparse_segment_ops.cc), as TF computes them:
// SparseSegment{Sum,Mean,SqrtN}Grad scatters the output gradient back to the picked rows of
// data. TF returns IndexedSlices (from the *GradV2 ops) when sparse_gradient is set; graphfn's
// gradients are dense, with the same values. Indices, segment ids and num_segments get none.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

template <const char* kGradOp>
Status sparse_segment_reduce_grad(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* g) {
  const GradValue zero = b.int_vector({0}), one = b.int_vector({1});
  const GradValue rows = b.op("StridedSlice", {b.shape_of(grad::x(in)), zero, one, one},
                              grad::attrs({{"shrink_axis_mask", int64_t{1}}}));
  (*g)[0] = b.op(kGradOp, {grad::dy(in), in.inputs[1], in.inputs[2], rows});
  return b.status();
}

constexpr char kSumGrad[] = "SparseSegmentSumGrad";
constexpr char kMeanGrad[] = "SparseSegmentMeanGrad";
constexpr char kSqrtNGrad[] = "SparseSegmentSqrtNGrad";

}  // namespace

void register_sparse_segment_gradients(OpRegistry& reg) {
  for (const char* suffix : {"", "WithNumSegments"}) {
    reg.set_gradient(std::string("SparseSegmentSum") + suffix, sparse_segment_reduce_grad<kSumGrad>);
    reg.set_gradient(std::string("SparseSegmentMean") + suffix, sparse_segment_reduce_grad<kMeanGrad>);
    reg.set_gradient(std::string("SparseSegmentSqrtN") + suffix, sparse_segment_reduce_grad<kSqrtNGrad>);
  }
}

}  // namespace graphfn
