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
  static constexpr size_t kAlignment = 64;       // heap buffers
  static constexpr size_t kInlineAlignment = 16;  // buffers of at most kInlineBytes
  static constexpr size_t kInlineBytes = 64;

  // Allocates room for n elements of dt (zero-initialised strings; other bytes undefined).
  // Returns null when the allocation fails.
  static std::shared_ptr<Buffer> allocate(DType dt, int64_t n);
  // Wraps memory owned elsewhere (e.g. a NumPy array); `release` runs when the last ref drops.
  static std::shared_ptr<Buffer> wrap(void* data, size_t bytes, std::function<void()> release);

  struct PrivateTag {};
  explicit Buffer(PrivateTag) {}
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  // Plain bytes this buffer allocated itself (not wrapped memory, not C++ objects): a kernel may
  // overwrite them once nothing else refers to the buffer.
  bool recyclable() const { return !release_ && object_dtype_ == DType::kInvalid; }

 private:
  // Small tensors (scalars, short vectors) live inside the Buffer object itself, so a new eager
  // scalar costs one allocation (Buffer + shared_ptr control block, via make_shared). Inline data
  // starts at the first kAlignment boundary inside inline_, as heap data does: Eigen's vector loops
  // compute the elements before the first aligned one with their scalar form (Rsqrt's differs from
  // its vector form in the last bit), so the data's alignment must not depend on where the Buffer
  // lands, or results would change from call to call.
  alignas(kInlineAlignment) unsigned char inline_[kInlineBytes + kAlignment - kInlineAlignment];
  void* raw_ = nullptr;  // what malloc returned for heap data (data_ is raw_ rounded up to kAlignment)
  void* data_ = nullptr;
  size_t bytes_ = 0;
  DType object_dtype_ = DType::kInvalid;  // kString / kResource: elements are C++ objects
  int64_t num_objects_ = 0;               // constructed objects to destroy
  std::function<void()> release_;
};

}  // namespace graphfn
