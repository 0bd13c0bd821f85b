// Shape: a tensor's dimensions, row-major. During tracing a dimension may be unknown (-1) and
// the rank itself may be unknown; eager tensors always have fully known shapes.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "graphfn/core/status.h"

namespace graphfn {

// A read-only view of a shape's dimensions (contiguous int64s); converts to a vector.
class DimsView {
 public:
  DimsView(const int64_t* data, int size) : data_(data), size_(size) {}
  const int64_t* begin() const { return data_; }
  const int64_t* end() const { return data_ + size_; }
  size_t size() const { return static_cast<size_t>(size_); }
  bool empty() const { return size_ == 0; }
  int64_t operator[](size_t i) const { return data_[i]; }
  operator std::vector<int64_t>() const { return std::vector<int64_t>(begin(), end()); }

 private:
  const int64_t* data_;
  int size_;
};

class Shape {
 public:
  static constexpr int64_t kUnknownDim = -1;

  Shape() = default;  // a scalar
  Shape(std::initializer_list<int64_t> dims) { assign(dims.begin(), dims.end()); }
  explicit Shape(const std::vector<int64_t>& dims) { assign(dims.data(), dims.data() + dims.size()); }
  static Shape unknown_rank() {
    Shape s;
    s.known_rank_ = false;
    return s;
  }

  int rank() const { return rank_; }
  bool known_rank() const { return known_rank_; }
  bool fully_defined() const;
  int64_t dim(int i) const { return data()[i]; }
  void set_dim(int i, int64_t d) { data()[i] = d; }
  DimsView dims() const { return DimsView(data(), rank_); }
  void add_dim(int64_t d) { insert_dim(rank_, d); }
  void insert_dim(int pos, int64_t d);
  void remove_dim(int pos);
  // Product of the dimensions; -1 when any is unknown.
  int64_t num_elements() const;

  // Inline: executors compare feed shapes on every run of a (sub-)plan.
  bool operator==(const Shape& o) const {
    if (known_rank_ != o.known_rank_ || rank_ != o.rank_) return false;
    const int64_t* a = data();
    const int64_t* b = o.data();
    for (int i = 0; i < rank_; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  bool operator!=(const Shape& o) const { return !(*this == o); }
  void swap(Shape& o) noexcept {
    std::swap(rank_, o.rank_);
    std::swap(known_rank_, o.known_rank_);
    for (int i = 0; i < kInline; ++i) std::swap(inline_[i], o.inline_[i]);
    heap_.swap(o.heap_);
  }
  std::string to_string() const;  // TF's "[2,3]" form, "[?,3]" for unknown dims, "<unknown>"

 private:
  // Ranks up to kInline live inside the object: most tensors' shapes cost no allocation.
  static constexpr int kInline = 6;
  const int64_t* data() const { return rank_ <= kInline ? inline_ : heap_.data(); }
  int64_t* data() { return rank_ <= kInline ? inline_ : heap_.data(); }
  void assign(const int64_t* begin, const int64_t* end);

  int rank_ = 0;
  bool known_rank_ = true;
  int64_t inline_[kInline] = {};
  std::vector<int64_t> heap_;  // used only when rank_ > kInline
};

// True if every tensor of shape `specific` also has shape `general` ([?,3] covers [2,3]; an
// unknown rank covers everything).
bool covers(const Shape& general, const Shape& specific);

// NumPy broadcasting of two shapes. Fails with TF's "Incompatible shapes: [a] vs. [b]".
Status broadcast_shapes(const Shape& a, const Shape& b, Shape* out);

// TF's BroadcastGradientArgs: the axes along which each of two broadcast operands (given by
// their dims) was stretched, i.e. the axes its gradient is summed over.
Status broadcast_gradient_axes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                               std::vector<int64_t>* axes_a, std::vector<int64_t>* axes_b);

// Resolves a possibly negative axis against a rank; fails naming the valid range.
Status normalize_axis(int64_t axis, int rank, int* out, const char* what = "axis");

// Row-major element strides of a fully known shape.
std::vector<int64_t> row_major_strides(const Shape& s);

// Largest element count we are willing to allocate (guards against hostile shapes).
constexpr int64_t kMaxElements = int64_t(1) << 40;
Status checked_num_elements(const Shape& s, int64_t* out);

}  // namespace graphfn
