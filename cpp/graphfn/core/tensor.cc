#include "graphfn/core/tensor.h"

#include "graphfn/core/resource.h"

#include <atomic>
#include <cstring>
#include <new>
#include <sstream>

namespace graphfn {

uint64_t Tensor::next_id() {
  static std::atomic<uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

Tensor::Tensor(DType dt, Shape shape) : dtype_(dt), shape_(std::move(shape)) {
  num_elements_ = shape_.num_elements();
  buffer_ = Buffer::allocate(dt, num_elements_);
  if (!buffer_) throw std::bad_alloc();
}

Status Tensor::make(DType dt, const Shape& shape, Tensor* out) {
  int64_t n = 0;
  GRAPHFN_RETURN_IF_ERROR(checked_num_elements(shape, &n));
  auto buf = Buffer::allocate(dt, n);
  if (!buf) return oom_error(dt, shape);
  *out = Tensor(dt, shape, std::move(buf), n);
  return Status::OK();
}

Status oom_error(DType dt, const Shape& shape) {
  return errors::ResourceExhausted("OOM when allocating tensor with shape", shape, " and type ", dtype_tf_string(dt),
                                   " on /job:localhost/replica:0/task:0/device:CPU:0 by allocator mklcpu");
}

Tensor::Tensor(DType dt, Shape shape, std::shared_ptr<Buffer> buffer, int64_t num_elements)
    : dtype_(dt), shape_(std::move(shape)), num_elements_(num_elements), buffer_(std::move(buffer)) {}

Tensor Tensor::copy() const {
  Tensor out(dtype_, shape_);
  if (dtype_ == DType::kString) {
    for (int64_t i = 0; i < num_elements_; ++i) out.data<std::string>()[i] = data<std::string>()[i];
  } else if (dtype_ == DType::kResource) {
    using Handle = std::shared_ptr<Resource>;
    for (int64_t i = 0; i < num_elements_; ++i) out.data<Handle>()[i] = data<Handle>()[i];
  } else if (num_elements_ > 0) {
    std::memcpy(out.raw_data(), raw_data(), bytes());
  }
  return out;
}

std::string Tensor::debug_string(int max_elements) const {
  std::ostringstream os;
  os << dtype_name(dtype_) << shape_.to_string() << " {";
  const int64_t n = std::min<int64_t>(num_elements_, max_elements);
  for (int64_t i = 0; i < n; ++i) {
    if (i) os << ", ";
    if (dtype_ == DType::kHalf || dtype_ == DType::kBFloat16) {
      os << half_bits_to_float(dtype_, data<uint16_t>()[i]);
      continue;
    }
    visit_dtype(dtype_, Concat<AllTypes, ComplexTypes, WideUnsignedTypes>{}, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
        os << static_cast<int>(data<T>()[i]);
      } else {
        os << data<T>()[i];
      }
    });
  }
  if (num_elements_ > n) os << ", ...";
  os << "}";
  return os.str();
}

}  // namespace graphfn
