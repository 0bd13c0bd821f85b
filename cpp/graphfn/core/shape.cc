#include "graphfn/core/shape.h"

#include <algorithm>

namespace graphfn {

void Shape::assign(const int64_t* begin, const int64_t* end) {
  rank_ = static_cast<int>(end - begin);
  if (rank_ > kInline) {
    heap_.assign(begin, end);
  } else {
    std::copy(begin, end, inline_);
  }
}

void Shape::insert_dim(int pos, int64_t d) {
  std::vector<int64_t> all = dims();
  all.insert(all.begin() + pos, d);
  assign(all.data(), all.data() + all.size());
}

void Shape::remove_dim(int pos) {
  std::vector<int64_t> all = dims();
  all.erase(all.begin() + pos);
  heap_.clear();
  assign(all.data(), all.data() + all.size());
}

bool Shape::fully_defined() const {
  if (!known_rank_) return false;
  return std::all_of(data(), data() + rank_, [](int64_t d) { return d >= 0; });
}

int64_t Shape::num_elements() const {
  if (!fully_defined()) return -1;
  // Saturates instead of overflowing (a shape function may infer [2^40, 2^63-1] from hostile
  // input): such a count fails every allocation (Buffer::allocate) and every checked use.
  int64_t n = 1;
  for (int64_t d : dims()) {
    if (__builtin_mul_overflow(n, d, &n)) return INT64_MAX;
  }
  return n;
}

std::string Shape::to_string() const {
  if (!known_rank_) return "<unknown>";
  std::string s = "[";
  for (int i = 0; i < rank_; ++i) {
    if (i) s += ",";
    s += dim(i) < 0 ? std::string("?") : std::to_string(dim(i));
  }
  return s + "]";
}

bool covers(const Shape& general, const Shape& specific) {
  if (!general.known_rank()) return true;
  if (!specific.known_rank() || general.rank() != specific.rank()) return false;
  for (int i = 0; i < general.rank(); ++i) {
    if (general.dim(i) >= 0 && general.dim(i) != specific.dim(i)) return false;
  }
  return true;
}

Status broadcast_shapes(const Shape& a, const Shape& b, Shape* out) {
  if (!a.known_rank() || !b.known_rank()) {
    *out = Shape::unknown_rank();
    return Status::OK();
  }
  const int rank = std::max(a.rank(), b.rank());
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    const int ia = a.rank() - rank + i, ib = b.rank() - rank + i;
    const int64_t da = ia >= 0 ? a.dim(ia) : 1;
    const int64_t db = ib >= 0 ? b.dim(ib) : 1;
    if (da == db || db == 1) {
      dims[i] = da;
    } else if (da == 1) {
      dims[i] = db;
    } else if (da < 0 || db < 0) {
      dims[i] = da < 0 ? db : da;  // unknown vs known (>1): the known one must win at run time
    } else {
      return errors::InvalidArgument("Incompatible shapes: ", a, " vs. ", b);
    }
  }
  *out = Shape(std::move(dims));
  return Status::OK();
}

Status normalize_axis(int64_t axis, int rank, int* out, const char* what) {
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument("Expected ", what, " in the range [", -rank, ", ", rank,
                                   "), but got ", axis);
  }
  *out = static_cast<int>(axis < 0 ? axis + rank : axis);
  return Status::OK();
}

std::vector<int64_t> row_major_strides(const Shape& s) {
  std::vector<int64_t> strides(s.rank());
  int64_t stride = 1;
  for (int i = s.rank() - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= s.dim(i);
  }
  return strides;
}

Status checked_num_elements(const Shape& s, int64_t* out) {
  int64_t n = 1;
  for (int64_t d : s.dims()) {
    if (d < 0) return errors::InvalidArgument("Shape ", s, " is not fully defined");
    if (d != 0 && n > kMaxElements / d) {
      return errors::ResourceExhausted("Shape ", s, " has too many elements");
    }
    n *= d;
  }
  *out = n;
  return Status::OK();
}

Status broadcast_gradient_axes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                               std::vector<int64_t>* axes_a, std::vector<int64_t>* axes_b) {
  axes_a->clear();
  axes_b->clear();
  if (a == b) return Status::OK();
  // Dimensions where only that operand is 1 (or missing), plus those where both are 1.
  const size_t rank = std::max(a.size(), b.size());
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i + a.size() >= rank ? a[i + a.size() - rank] : 1;
    const int64_t db = i + b.size() >= rank ? b[i + b.size() - rank] : 1;
    if (da == 1) axes_a->push_back(static_cast<int64_t>(i));
    if (db == 1) axes_b->push_back(static_cast<int64_t>(i));
    if (da != db && da != 1 && db != 1) return errors::InvalidArgument("Incompatible shapes: ", Shape(a), " vs. ", Shape(b));
  }
  return Status::OK();
}

}  // namespace graphfn
