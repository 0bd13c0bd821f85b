// Buffer: aligned, reference-counted storage for tensor elements. String tensors keep
// constructed std::string objects in it; everything else is plain bytes.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>

#include "graphfn/core/dtype.h"

namespace graphfn {

class Buffer {
 public:
  static constexpr size_t kAlignment = 64;

  // Allocates room for n elements of dt (zero-initialised strings; other bytes undefined).
  // Returns null when the allocation fails.
  static std::shared_ptr<Buffer> allocate(DType dt, int64_t n);
  // Wraps memory owned elsewhere (e.g. a NumPy array); `release` runs when the last ref drops.
  static std::shared_ptr<Buffer> wrap(void* data, size_t bytes, std::function<void()> release);

  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }

 private:
  Buffer() = default;
  void* raw_ = nullptr;   // what malloc returned (data_ is raw_ rounded up to kAlignment)
  void* data_ = nullptr;
  size_t bytes_ = 0;
  int64_t num_strings_ = 0;  // constructed std::strings to destroy
  std::function<void()> release_;
};

}  // namespace graphfn
