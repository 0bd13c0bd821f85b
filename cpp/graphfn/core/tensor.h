// Tensor: dtype + shape + a shared buffer, row-major (NumPy order). Copying a Tensor shares the
// buffer; kernels always write into freshly allocated outputs, so shared buffers are never mutated
// (variables, which do mutate, own their buffer).
#pragma once
#include <memory>
#include <string>

#include "graphfn/core/buffer.h"
#include "graphfn/core/dtype.h"
#include "graphfn/core/shape.h"
#include "graphfn/core/status.h"

namespace graphfn {

class Tensor {
 public:
  Tensor() = default;
  // Allocates an uninitialised tensor; use Tensor::make for a checked allocation.
  Tensor(DType dt, Shape shape);
  static Status make(DType dt, const Shape& shape, Tensor* out);
  // Shares `buffer` (which must hold at least num_elements() elements of dt).
  Tensor(DType dt, Shape shape, std::shared_ptr<Buffer> buffer, int64_t num_elements);

  template <typename T>
  static Tensor scalar(T value) {
    Tensor t(DTypeOf<T>::value, Shape());
    *t.data<T>() = std::move(value);
    return t;
  }
  template <typename T>
  static Tensor vector(std::initializer_list<T> values);

  bool valid() const { return dtype_ != DType::kInvalid; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int rank() const { return shape_.rank(); }
  int64_t dim(int i) const { return shape_.dim(i); }
  int64_t num_elements() const { return num_elements_; }
  size_t bytes() const { return static_cast<size_t>(num_elements_) * dtype_size(dtype_); }

  void* raw_data() const { return buffer_ ? buffer_->data() : nullptr; }
  template <typename T>
  T* data() const { return static_cast<T*>(raw_data()); }
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }

  // Same elements, new shape (element counts must match; checked by the caller).
  Tensor reshaped(Shape shape) const { return Tensor(dtype_, std::move(shape), buffer_, num_elements_); }
  // A deep copy (own buffer).
  Tensor copy() const;
  // Exchanges two tensors member by member: cheaper than std::swap's three moves through a
  // temporary (executors swap a loop's values into place every iteration).
  void swap(Tensor& o) noexcept {
    std::swap(dtype_, o.dtype_);
    shape_.swap(o.shape_);
    std::swap(num_elements_, o.num_elements_);
    buffer_.swap(o.buffer_);
    std::swap(id_, o.id_);
  }

  // Debug text: dtype, shape and up to `max_elements` values.
  std::string debug_string(int max_elements = 10) const;

  // Identity of the logical tensor, for gradient tapes (autodiff/tape.h): assigned on first use
  // (watching, or being the output of a recorded op); 0 = none yet. Copies of a Tensor are the
  // same logical tensor and share the id; kernel outputs never inherit one (run_kernel clears
  // them), so forwarding a buffer (Identity, Reshape) still makes a new tensor. Assigned under
  // the GIL or by the one thread that owns the tensor.
  uint64_t id() const {
    if (id_ == 0) id_ = next_id();
    return id_;
  }
  uint64_t id_if_any() const { return id_; }
  void clear_id() { id_ = 0; }
  void assign_new_id() { id_ = next_id(); }

 private:
  DType dtype_ = DType::kInvalid;
  Shape shape_;
  int64_t num_elements_ = 0;
  std::shared_ptr<Buffer> buffer_;
  mutable uint64_t id_ = 0;
  static uint64_t next_id();
};

// TF's ResourceExhausted text for an allocation that cannot be satisfied.
Status oom_error(DType dt, const Shape& shape);

template <typename T>
Tensor Tensor::vector(std::initializer_list<T> values) {
  Tensor t(DTypeOf<T>::value, Shape{static_cast<int64_t>(values.size())});
  T* p = t.data<T>();
  for (const T& v : values) *p++ = v;
  return t;
}

}  // namespace graphfn
