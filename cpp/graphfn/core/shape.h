// Shape: a tensor's dimensions, row-major. During tracing a dimension may be unknown (-1) and
// the rank itself may be unknown; eager tensors always have fully known shapes.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "graphfn/core/status.h"

namespace graphfn {

class Shape {
 public:
  static constexpr int64_t kUnknownDim = -1;

  Shape() = default;  // a scalar
  Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
  static Shape unknown_rank() {
    Shape s;
    s.known_rank_ = false;
    return s;
  }

  int rank() const { return static_cast<int>(dims_.size()); }
  bool known_rank() const { return known_rank_; }
  bool fully_defined() const;
  int64_t dim(int i) const { return dims_[i]; }
  void set_dim(int i, int64_t d) { dims_[i] = d; }
  const std::vector<int64_t>& dims() const { return dims_; }
  void add_dim(int64_t d) { dims_.push_back(d); }
  void insert_dim(int pos, int64_t d) { dims_.insert(dims_.begin() + pos, d); }
  void remove_dim(int pos) { dims_.erase(dims_.begin() + pos); }
  // Product of the dimensions; -1 when any is unknown.
  int64_t num_elements() const;

  bool operator==(const Shape& o) const { return known_rank_ == o.known_rank_ && dims_ == o.dims_; }
  bool operator!=(const Shape& o) const { return !(*this == o); }
  std::string to_string() const;  // TF's "[2,3]" form, "[?,3]" for unknown dims, "<unknown>"

 private:
  std::vector<int64_t> dims_;
  bool known_rank_ = true;
};

// NumPy broadcasting of two shapes. Fails with TF's "Incompatible shapes: [a] vs. [b]".
Status broadcast_shapes(const Shape& a, const Shape& b, Shape* out);

// Resolves a possibly negative axis against a rank; fails naming the valid range.
Status normalize_axis(int64_t axis, int rank, int* out, const char* what = "axis");

// Row-major element strides of a fully known shape.
std::vector<int64_t> row_major_strides(const Shape& s);

// Largest element count we are willing to allocate (guards against hostile shapes).
constexpr int64_t kMaxElements = int64_t(1) << 40;
Status checked_num_elements(const Shape& s, int64_t* out);

}  // namespace graphfn
