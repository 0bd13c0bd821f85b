#include "graphfn/kernels/example_wire.h"

#include <cstring>

namespace graphfn {
namespace {

// A cursor over protobuf wire bytes; every read checks the bytes left.
struct WireCursor {
  const char* p;
  const char* end;
  bool done() const { return p >= end; }
  bool varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p >= end) return false;
      const uint8_t b = static_cast<uint8_t>(*p++);
      *v |= uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool bytes(std::string_view* out) {
    uint64_t n;
    if (!varint(&n) || n > static_cast<uint64_t>(end - p)) return false;
    *out = std::string_view(p, static_cast<size_t>(n));
    p += n;
    return true;
  }
  bool fixed32(uint32_t* v) {
    if (end - p < 4) return false;
    std::memcpy(v, p, 4);
    p += 4;
    return true;
  }
  // Skips a field of this wire type (groups are not valid in these messages).
  bool skip(uint32_t wire_type) {
    uint64_t v;
    std::string_view s;
    switch (wire_type) {
      case 0: return varint(&v);
      case 1: if (end - p < 8) return false; p += 8; return true;
      case 2: return bytes(&s);
      case 5: if (end - p < 4) return false; p += 4; return true;
      default: return false;
    }
  }
  bool tag(uint32_t* field, uint32_t* wire_type) {
    uint64_t t;
    if (!varint(&t) || (t >> 3) == 0 || (t >> 3) > 0x1fffffff) return false;
    *field = static_cast<uint32_t>(t >> 3);
    *wire_type = static_cast<uint32_t>(t & 7);
    return true;
  }
};

WireCursor wire_cursor(std::string_view s) { return WireCursor{s.data(), s.data() + s.size()}; }

bool example_parse_feature(std::string_view bytes, FeatureView* f) {
  WireCursor c = wire_cursor(bytes);
  while (!c.done()) {
    uint32_t field, wt;
    if (!c.tag(&field, &wt)) return false;
    if (field >= 1 && field <= 3 && wt == 2) {
      std::string_view list;
      if (!c.bytes(&list)) return false;
      const auto kind = static_cast<FeatureView::Kind>(field);
      if (f->kind != kind) f->lists.clear();
      f->kind = kind;
      f->lists.push_back(list);
    } else if (!c.skip(wt)) {
      return false;
    }
  }
  return true;
}

bool example_parse_features(std::string_view bytes, std::vector<std::pair<std::string_view, FeatureView>>* out) {
  WireCursor c = wire_cursor(bytes);
  while (!c.done()) {
    uint32_t field, wt;
    if (!c.tag(&field, &wt)) return false;
    if (field != 1 || wt != 2) {
      if (!c.skip(wt)) return false;
      continue;
    }
    std::string_view entry;
    if (!c.bytes(&entry)) return false;
    std::string_view key;
    FeatureView value;
    WireCursor e = wire_cursor(entry);
    while (!e.done()) {
      uint32_t ef, ewt;
      if (!e.tag(&ef, &ewt)) return false;
      if (ef == 1 && ewt == 2) {
        if (!e.bytes(&key)) return false;
      } else if (ef == 2 && ewt == 2) {
        std::string_view v;
        if (!e.bytes(&v) || !example_parse_feature(v, &value)) return false;  // a repeated value merges
      } else if (!e.skip(ewt)) {
        return false;
      }
    }
    out->emplace_back(key, std::move(value));
  }
  return true;
}

}  // namespace

bool parse_example_features(std::string_view example, std::vector<std::pair<std::string_view, FeatureView>>* out) {
  out->clear();
  WireCursor c = wire_cursor(example);
  while (!c.done()) {
    uint32_t field, wt;
    if (!c.tag(&field, &wt)) return false;
    if (field == 1 && wt == 2) {
      std::string_view features;
      if (!c.bytes(&features) || !example_parse_features(features, out)) return false;
    } else if (!c.skip(wt)) {
      return false;
    }
  }
  return true;
}

bool feature_bytes(const FeatureView& f, std::vector<std::string_view>* out) {
  out->clear();
  for (std::string_view list : f.lists) {
    WireCursor c = wire_cursor(list);
    while (!c.done()) {
      uint32_t field, wt;
      if (!c.tag(&field, &wt)) return false;
      std::string_view v;
      if (field == 1 && wt == 2) {
        if (!c.bytes(&v)) return false;
        out->push_back(v);
      } else if (!c.skip(wt)) {
        return false;
      }
    }
  }
  return true;
}

bool feature_floats(const FeatureView& f, std::vector<float>* out) {
  out->clear();
  for (std::string_view list : f.lists) {
    WireCursor c = wire_cursor(list);
    while (!c.done()) {
      uint32_t field, wt;
      if (!c.tag(&field, &wt)) return false;
      if (field == 1 && wt == 2) {  // packed
        std::string_view packed;
        if (!c.bytes(&packed) || packed.size() % 4 != 0) return false;
        if (packed.empty()) continue;  // (memcpy of nothing from/to a null pointer is still UB)
        const size_t old = out->size();
        out->resize(old + packed.size() / 4);
        std::memcpy(out->data() + old, packed.data(), packed.size());
      } else if (field == 1 && wt == 5) {
        uint32_t bits;
        if (!c.fixed32(&bits)) return false;
        float v;
        std::memcpy(&v, &bits, 4);
        out->push_back(v);
      } else if (!c.skip(wt)) {
        return false;
      }
    }
  }
  return true;
}

bool feature_int64s(const FeatureView& f, std::vector<int64_t>* out) {
  out->clear();
  for (std::string_view list : f.lists) {
    WireCursor c = wire_cursor(list);
    while (!c.done()) {
      uint32_t field, wt;
      if (!c.tag(&field, &wt)) return false;
      uint64_t v;
      if (field == 1 && wt == 2) {  // packed
        std::string_view packed;
        if (!c.bytes(&packed)) return false;
        WireCursor pc = wire_cursor(packed);
        while (!pc.done()) {
          if (!pc.varint(&v)) return false;
          out->push_back(static_cast<int64_t>(v));
        }
      } else if (field == 1 && wt == 0) {
        if (!c.varint(&v)) return false;
        out->push_back(static_cast<int64_t>(v));
      } else if (!c.skip(wt)) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace graphfn
