#include "graphfn/core/buffer.h"

#include "graphfn/core/resource.h"

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace graphfn {
namespace {

// glibc serves large blocks with mmap and returns freed heap tops to the system, so a chain of
// ops on multi-megabyte tensors page-faults every buffer in again (measured: relu(x) * 2 on a
// 6 MB tensor took 21 ms instead of 2.7). Large blocks from the heap, kept after free, as TF's
// allocator keeps them; blocks above 32 MB (glibc's cap) still use mmap.
bool keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
  return true;
}

}  // namespace

std::shared_ptr<Buffer> Buffer::allocate(DType dt, int64_t n) {
  size_t bytes = 0;  // a count no allocation can hold fails here, not as a wrapped small size
  if (n < 0 || __builtin_mul_overflow(static_cast<size_t>(n), dtype_size(dt), &bytes) ||
      bytes > SIZE_MAX - kAlignment) {
    return nullptr;
  }
  auto buf = std::make_shared<Buffer>(PrivateTag{});
  void* p = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(buf->inline_) + kAlignment - 1) & ~uintptr_t(kAlignment - 1));
  if (bytes > kInlineBytes) {
    static const bool tuned = keep_freed_memory();
    (void)tuned;
    // malloc and align by hand: glibc's aligned_alloc takes a slow path (~60 ns against ~10 ns).
    void* raw = std::malloc(bytes + kAlignment);
    if (!raw) return nullptr;
    buf->raw_ = raw;
    p = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(raw) + kAlignment - 1) & ~uintptr_t(kAlignment - 1));
  }
  buf->data_ = p;
  buf->bytes_ = bytes;
  if (dt == DType::kString) {
    auto* s = static_cast<std::string*>(p);
    for (int64_t i = 0; i < n; ++i) new (s + i) std::string();
  } else if (dt == DType::kResource) {
    auto* r = static_cast<std::shared_ptr<Resource>*>(p);
    for (int64_t i = 0; i < n; ++i) new (r + i) std::shared_ptr<Resource>();
  }
  if (holds_objects(dt)) {
    buf->object_dtype_ = dt;
    buf->num_objects_ = n;
  }
  return buf;
}

std::shared_ptr<Buffer> Buffer::wrap(void* data, size_t bytes, std::function<void()> release) {
  auto buf = std::make_shared<Buffer>(PrivateTag{});
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
  if (object_dtype_ == DType::kString) {
    auto* s = static_cast<std::string*>(data_);
    for (int64_t i = 0; i < num_objects_; ++i) s[i].~basic_string();
  } else if (object_dtype_ == DType::kResource) {
    auto* r = static_cast<std::shared_ptr<Resource>*>(data_);
    for (int64_t i = 0; i < num_objects_; ++i) r[i].~shared_ptr();
  }
  std::free(raw_);
}

}  // namespace graphfn
