#include "graphfn/runtime/call_key.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace graphfn {
namespace {

// 2^53: ints within it are exact as doubles, so they share keys with equal floats.
constexpr double kExactIntLimit = 9007199254740992.0;

}  // namespace

void CallKey::clear() {
  words_.clear();
  bytes_.clear();
  opaque_.clear();
}

void CallKey::add_shape(const Shape& shape) {
  if (!shape.known_rank()) {
    words_.push_back(~uint64_t(0));
    return;
  }
  words_.push_back(static_cast<uint64_t>(shape.rank()));
  for (int i = 0; i < shape.rank(); ++i) words_.push_back(static_cast<uint64_t>(shape.dim(i)));
}

void CallKey::add_tensor(DType dtype, const Shape& shape) {
  words_.push_back(kTensor);
  words_.push_back(static_cast<uint64_t>(dtype));
  add_shape(shape);
}

void CallKey::add_int(int64_t v) {
  const double d = static_cast<double>(v);
  if (d >= -kExactIntLimit && d <= kExactIntLimit) {
    add_float(d);
    return;
  }
  words_.push_back(kBigInt);
  words_.push_back(static_cast<uint64_t>(v));
}

void CallKey::add_float(double v) {
  if (std::isnan(v)) {
    words_.push_back(kNaN);
    return;
  }
  if (v == 0) v = 0.0;  // -0.0 == 0.0
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  words_.push_back(kNumber);
  words_.push_back(bits);
}

void CallKey::add_string(std::string_view s, bool is_bytes) {
  words_.push_back(is_bytes ? kBytes : kString);
  words_.push_back(s.size());
  bytes_.append(s.data(), s.size());
}

void CallKey::add_none() { words_.push_back(kNone); }

void CallKey::begin_sequence(bool is_tuple, size_t size) {
  words_.push_back(is_tuple ? kTuple : kList);
  words_.push_back(size);
}

void CallKey::begin_dict(size_t size) {
  words_.push_back(kDict);
  words_.push_back(size);
}

void CallKey::add_variable(DType dtype, const Shape& shape, bool trainable, int alias) {
  words_.push_back(kVariable);
  words_.push_back(static_cast<uint64_t>(dtype));
  add_shape(shape);
  words_.push_back(trainable ? 1 : 0);
  words_.push_back(static_cast<uint64_t>(alias));
}

void CallKey::add_opaque(std::shared_ptr<const OpaqueKey> part) {
  words_.push_back(kOpaque);
  opaque_.push_back(std::move(part));
}

bool CallKey::operator==(const CallKey& o) const {
  if (words_ != o.words_ || bytes_ != o.bytes_ || opaque_.size() != o.opaque_.size()) return false;
  for (size_t i = 0; i < opaque_.size(); ++i) {
    if (opaque_[i] != o.opaque_[i] && !opaque_[i]->equals(*o.opaque_[i])) return false;
  }
  return true;
}

size_t CallKey::hash() const {
  // One multiply per word: every call hashes its key. The final fold brings the high bits,
  // where the multiplies carry the words' differences, down to the low ones buckets use.
  constexpr uint64_t kOdd = 0x9e3779b97f4a7c15ULL;
  uint64_t h = words_.size() * kOdd;
  for (uint64_t w : words_) h = (h ^ w) * kOdd;
  for (size_t i = 0; i < bytes_.size(); i += 8) {
    uint64_t chunk = 0;
    std::memcpy(&chunk, bytes_.data() + i, std::min<size_t>(8, bytes_.size() - i));
    h = (h ^ chunk) * kOdd;
  }
  for (const auto& part : opaque_) h = (h ^ part->hash()) * kOdd;
  return static_cast<size_t>(h ^ (h >> 29) ^ (h >> 47));
}

}  // namespace graphfn
