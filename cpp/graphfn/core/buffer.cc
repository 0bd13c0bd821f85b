#include "graphfn/core/buffer.h"

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>

namespace graphfn {

std::shared_ptr<Buffer> Buffer::allocate(DType dt, int64_t n) {
  const size_t bytes = static_cast<size_t>(n) * dtype_size(dt);
  // malloc and align by hand: glibc's aligned_alloc takes a slow path (~60 ns against ~10 ns
  // for malloc), which dominated small eager ops.
  void* raw = std::malloc(bytes + kAlignment);
  if (!raw) return nullptr;
  const uintptr_t addr = (reinterpret_cast<uintptr_t>(raw) + kAlignment - 1) & ~uintptr_t(kAlignment - 1);
  void* p = reinterpret_cast<void*>(addr);
  std::shared_ptr<Buffer> buf(new Buffer());
  buf->raw_ = raw;
  buf->data_ = p;
  buf->bytes_ = bytes;
  if (dt == DType::kString) {
    auto* s = static_cast<std::string*>(p);
    for (int64_t i = 0; i < n; ++i) new (s + i) std::string();
    buf->num_strings_ = n;
  }
  return buf;
}

std::shared_ptr<Buffer> Buffer::wrap(void* data, size_t bytes, std::function<void()> release) {
  std::shared_ptr<Buffer> buf(new Buffer());
  buf->data_ = data;
  buf->bytes_ = bytes;
  buf->release_ = std::move(release);
  return buf;
}

Buffer::~Buffer() {
  if (release_) {
    release_();
    return;
  }
  auto* s = static_cast<std::string*>(data_);
  for (int64_t i = 0; i < num_strings_; ++i) s[i].~basic_string();
  std::free(raw_);
}

}  // namespace graphfn
