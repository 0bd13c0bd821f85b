#include "graphfn/core/buffer.h"

#include "graphfn/core/resource.h"

#include <cstdlib>
#include <new>
#include <string>

namespace graphfn {

std::shared_ptr<Buffer> Buffer::allocate(DType dt, int64_t n) {
  const size_t bytes = static_cast<size_t>(n) * dtype_size(dt);
  auto buf = std::make_shared<Buffer>(PrivateTag{});
  void* p = buf->inline_;
  if (bytes > kInlineBytes) {
    // aligned_alloc needs a size that is a multiple of the alignment.
    const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    p = std::aligned_alloc(kAlignment, rounded);
    if (!p) return nullptr;
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
  if (data_ != inline_) std::free(data_);
}

}  // namespace graphfn
