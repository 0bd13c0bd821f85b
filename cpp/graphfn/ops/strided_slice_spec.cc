#include "graphfn/ops/strided_slice_spec.h"

#include <algorithm>

#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

bool bit(int64_t mask, int i) { return i < 64 && ((static_cast<uint64_t>(mask) >> i) & 1); }

// One input dimension's slice, before clamping.
struct DenseEntry {
  int64_t begin = 0, end = 0, stride = 1;
  bool begin_mask = true, end_mask = true, shrink = false;
  bool begin_known = true, end_known = true;
};

constexpr int kNewAxis = -1;

// begin/end of a range slice along a dimension of size `dim`: negative values count from the end,
// then clamp into the range a stride of that sign can start or stop at.
int64_t clamp_index(int64_t x, int64_t dim, bool positive_stride) {
  if (x < 0) x += dim;  // x >= INT64_MIN and dim >= 0: cannot overflow
  return positive_stride ? std::clamp<int64_t>(x, 0, dim) : std::clamp<int64_t>(x, -1, dim - 1);
}

}  // namespace

Status check_slice_spec_shapes(const Shape& begin, const Shape& end, const Shape& strides) {
  Shape spec;
  if (!merge_shapes(begin, end, &spec) || !merge_shapes(spec, strides, &spec) || (spec.known_rank() && spec.rank() != 1)) {
    return errors::InvalidArgument("Expected begin, end, and strides to be 1D equal size tensors, but got shapes ",
                                   begin, ", ", end, ", and ", strides, " instead.");
  }
  return Status::OK();
}

Status compute_strided_slice(const Shape& input, const std::vector<int64_t>* begin,
                             const std::vector<int64_t>* end, const std::vector<int64_t>& strides,
                             const StridedSliceMasks& masks, StridedSliceResult* out) {
  // Callers check the tensors' shapes first (check_slice_spec_shapes); this guards the indexing.
  if ((begin && begin->size() != strides.size()) || (end && end->size() != strides.size())) {
    return errors::InvalidArgument("Expected begin, end, and strides to be 1D equal size tensors");
  }
  const uint64_t ellipsis = static_cast<uint64_t>(masks.ellipsis);
  if (ellipsis & (ellipsis - 1)) return errors::InvalidArgument("Multiple ellipses in slice spec not allowed");
  const int sparse_n = static_cast<int>(strides.size());
  int ellipsis_pos = sparse_n;  // no ellipsis: one is implied after the last item
  for (int i = 0; i < sparse_n; ++i) {
    if (bit(masks.ellipsis, i)) {
      ellipsis_pos = i;
      break;
    }
  }
  const int total = std::max(sparse_n, ellipsis_pos + 1);
  int new_axes_after_ellipsis = 0;
  for (int i = ellipsis_pos + 1; i < sparse_n; ++i) new_axes_after_ellipsis += bit(masks.new_axis, i);

  // Sparse -> dense. `layout` lists the output dims: a kept input dim or kNewAxis.
  const int rank = input.rank();
  std::vector<DenseEntry> dense(rank);
  std::vector<int> layout;
  int full = 0;
  for (int i = 0; i < total; ++i) {
    if (i == ellipsis_pos) {
      // Cover every input dim the items after the ellipsis do not consume.
      const int next = std::min(rank - (total - i) + 1 + new_axes_after_ellipsis, rank);
      for (; full < next; ++full) layout.push_back(full);  // DenseEntry defaults: the whole dim
    } else if (bit(masks.new_axis, i)) {
      layout.push_back(kNewAxis);
    } else {
      if (full == rank) {
        if (rank == 0) return errors::InvalidArgument("Attempting to slice scalar input.");
        return errors::InvalidArgument("Index out of range using input dim ", full, "; input has only ",
                                       rank, " dims");
      }
      DenseEntry& e = dense[full];
      e.begin_known = begin != nullptr;
      e.end_known = end != nullptr;
      e.begin = begin ? (*begin)[i] : 0;
      e.end = end ? (*end)[i] : 0;
      e.stride = strides[i];
      e.begin_mask = bit(masks.begin, i);
      e.end_mask = bit(masks.end, i);
      e.shrink = bit(masks.shrink_axis, i);
      if (!e.shrink) layout.push_back(full);
      ++full;
    }
  }

  out->begin.assign(rank, 0);
  out->strides.assign(rank, 1);
  out->sizes.assign(rank, 0);
  out->is_identity = true;
  for (int d = 0; d < rank; ++d) {
    const DenseEntry& e = dense[d];
    const int64_t dim = input.dim(d);
    if (e.stride == 0) return errors::InvalidArgument("strides[", d, "] must be non-zero");
    int64_t b, size;
    if (e.shrink) {
      if (e.stride < 0) return errors::InvalidArgument("only stride 1 allowed on non-range indexing.");
      if (dim < 0 || !e.begin_known) {  // graph building: checked when the op runs
        out->sizes[d] = 1;
        out->is_identity = false;
        continue;
      }
      b = e.begin < 0 ? e.begin + dim : e.begin;
      if (b < 0 || b >= dim) {
        return errors::InvalidArgument("slice index ", b, " of dimension ", d, " out of bounds.");
      }
      size = 1;
      out->strides[d] = 1;
    } else if (dim < 0 || (!e.begin_mask && !e.begin_known) || (!e.end_mask && !e.end_known)) {
      out->sizes[d] = Shape::kUnknownDim;
      out->is_identity = false;
      continue;
    } else {
      const bool up = e.stride > 0;
      b = e.begin_mask ? (up ? 0 : dim - 1) : clamp_index(e.begin, dim, up);
      const int64_t en = e.end_mask ? (up ? dim : -1) : clamp_index(e.end, dim, up);
      // Both ends lie in [-1, dim], so the distance fits; |stride| may not fit int64 (INT64_MIN).
      const uint64_t distance = up ? (en > b ? uint64_t(en - b) : 0) : (b > en ? uint64_t(b - en) : 0);
      const uint64_t step = up ? uint64_t(e.stride) : uint64_t(0) - uint64_t(e.stride);
      size = distance == 0 ? 0 : static_cast<int64_t>(1 + (distance - 1) / step);
      out->strides[d] = e.stride;
    }
    out->begin[d] = b;
    out->sizes[d] = size;
    if (size != dim || (size > 0 && b != 0) || (size > 1 && e.stride != 1)) out->is_identity = false;
  }

  std::vector<int64_t> dims;
  for (int d : layout) dims.push_back(d == kNewAxis ? 1 : out->sizes[d]);
  out->output_shape = Shape(std::move(dims));
  return Status::OK();
}

}  // namespace graphfn
