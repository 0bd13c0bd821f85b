#include "graphfn/runtime/call_key.h"

#include <cmath>

namespace graphfn {
namespace {

size_t mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

}  // namespace

bool KeyPart::operator==(const KeyPart& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case kTensor: return dtype == o.dtype && dims == o.dims;
    case kNumber: return number == o.number;
    case kBigInt: return big == o.big;
    case kString:
    case kBytes: return text == o.text;
    case kNaN:
    case kNone: return true;
  }
  return false;
}

void CallKey::add_tensor(DType dtype, const Shape& shape) {
  KeyPart p{KeyPart::kTensor};
  p.dtype = dtype;
  p.dims = shape.dims();
  parts_.push_back(std::move(p));
}

void CallKey::add_int(int64_t v) {
  // Ints that a double represents exactly share keys with equal floats (1 == 1.0).
  const double d = static_cast<double>(v);
  if (d >= -9007199254740992.0 && d <= 9007199254740992.0) {
    add_float(d);
    return;
  }
  KeyPart p{KeyPart::kBigInt};
  p.big = v;
  parts_.push_back(std::move(p));
}

void CallKey::add_float(double v) {
  KeyPart p{std::isnan(v) ? KeyPart::kNaN : KeyPart::kNumber};
  p.number = v == 0 ? 0.0 : v;  // -0.0 == 0.0
  parts_.push_back(std::move(p));
}

void CallKey::add_string(std::string s, bool is_bytes) {
  KeyPart p{is_bytes ? KeyPart::kBytes : KeyPart::kString};
  p.text = std::move(s);
  parts_.push_back(std::move(p));
}

void CallKey::add_none() { parts_.push_back(KeyPart{KeyPart::kNone}); }

size_t CallKey::hash() const {
  size_t h = parts_.size();
  for (const KeyPart& p : parts_) {
    h = mix(h, p.kind);
    switch (p.kind) {
      case KeyPart::kTensor:
        h = mix(h, static_cast<size_t>(p.dtype));
        for (int64_t d : p.dims) h = mix(h, static_cast<size_t>(d));
        break;
      case KeyPart::kNumber: h = mix(h, std::hash<double>()(p.number)); break;
      case KeyPart::kBigInt: h = mix(h, std::hash<int64_t>()(p.big)); break;
      case KeyPart::kString:
      case KeyPart::kBytes: h = mix(h, std::hash<std::string>()(p.text)); break;
      default: break;
    }
  }
  return h;
}

}  // namespace graphfn
