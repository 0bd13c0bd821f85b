#include "graphfn/serialize/byte_io.h"

#include <array>
#include <cstring>

namespace graphfn {
namespace {

static_assert(sizeof(double) == 8, "IEEE doubles");

std::array<uint32_t, 256> crc_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}

}  // namespace

uint32_t crc32(std::string_view bytes) {
  static const std::array<uint32_t, 256> table = crc_table();
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void ByteWriter::u32(uint32_t v) {
  for (int i = 0; i < 4; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
}

void ByteWriter::u64(uint64_t v) {
  for (int i = 0; i < 8; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
}

void ByteWriter::f64(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  u64(bits);
}

void ByteWriter::varint(uint64_t v) {
  while (v >= 0x80) {
    u8(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  u8(static_cast<uint8_t>(v));
}

void ByteWriter::svarint(int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v);
  varint((u << 1) ^ (v < 0 ? ~uint64_t{0} : 0));
}

void ByteWriter::string(std::string_view s) {
  varint(s.size());
  out_.append(s.data(), s.size());
}

Status ByteReader::corrupt(const std::string& message) const {
  return Status(Code::kDataLoss, message + " (at byte " + std::to_string(pos_) + ")");
}

Status ByteReader::need(size_t n, const char* what) {
  if (n > remaining()) {
    return corrupt(std::string("truncated: ") + what + " needs " + std::to_string(n) + " bytes, " +
                   std::to_string(remaining()) + " left");
  }
  return Status::OK();
}

Status ByteReader::u8(uint8_t* v) {
  GRAPHFN_RETURN_IF_ERROR(need(1, "a byte"));
  *v = static_cast<uint8_t>(in_[pos_++]);
  return Status::OK();
}

Status ByteReader::u32(uint32_t* v) {
  GRAPHFN_RETURN_IF_ERROR(need(4, "a 32-bit integer"));
  *v = 0;
  for (int i = 0; i < 4; ++i) *v |= uint32_t{static_cast<uint8_t>(in_[pos_++])} << (8 * i);
  return Status::OK();
}

Status ByteReader::u64(uint64_t* v) {
  GRAPHFN_RETURN_IF_ERROR(need(8, "a 64-bit integer"));
  *v = 0;
  for (int i = 0; i < 8; ++i) *v |= uint64_t{static_cast<uint8_t>(in_[pos_++])} << (8 * i);
  return Status::OK();
}

Status ByteReader::f64(double* v) {
  uint64_t bits = 0;
  GRAPHFN_RETURN_IF_ERROR(u64(&bits));
  std::memcpy(v, &bits, 8);
  return Status::OK();
}

Status ByteReader::varint(uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t b = 0;
    GRAPHFN_RETURN_IF_ERROR(u8(&b));
    // The tenth byte holds only the top bit of a 64-bit value.
    if (shift == 63 && b > 1) return corrupt("varint overflows 64 bits");
    *v |= uint64_t{b & 0x7Fu} << shift;
    if (!(b & 0x80)) return Status::OK();
  }
  return corrupt("varint longer than 10 bytes");
}

Status ByteReader::svarint(int64_t* v) {
  uint64_t u = 0;
  GRAPHFN_RETURN_IF_ERROR(varint(&u));
  *v = static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  return Status::OK();
}

Status ByteReader::string(std::string* s, const char* what) {
  uint64_t n = 0;
  GRAPHFN_RETURN_IF_ERROR(varint(&n));
  if (n > remaining()) {
    return corrupt(std::string(what) + " claims " + std::to_string(n) + " bytes, only " +
                   std::to_string(remaining()) + " left");
  }
  s->assign(in_.data() + pos_, n);
  pos_ += n;
  return Status::OK();
}

namespace {

bool valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<uint8_t>(s[i]);
    const int n = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (n < 0 || i + n >= s.size()) return false;
    for (int k = 1; k <= n; ++k) {
      if ((static_cast<uint8_t>(s[i + k]) >> 6) != 0x2) return false;
    }
    i += n + 1;
  }
  return true;
}

}  // namespace

Status ByteReader::name(std::string* s, const char* what) {
  GRAPHFN_RETURN_IF_ERROR(string(s, what));
  if (s->empty()) return corrupt(std::string(what) + " is empty");
  if (!valid_utf8(*s)) return corrupt(std::string(what) + " is not UTF-8 text");
  return Status::OK();
}

Status ByteReader::count(int64_t* n, const char* what, int64_t limit, int64_t min_item_bytes) {
  uint64_t u = 0;
  GRAPHFN_RETURN_IF_ERROR(varint(&u));
  if (u > static_cast<uint64_t>(limit)) {
    return corrupt(std::string("too many ") + what + ": " + std::to_string(u) + " (the limit is " +
                   std::to_string(limit) + ")");
  }
  if (min_item_bytes > 0 && u > remaining() / static_cast<uint64_t>(min_item_bytes)) {
    return corrupt(std::string("claims ") + std::to_string(u) + " " + what + ", more than the " +
                   std::to_string(remaining()) + " bytes left can hold");
  }
  *n = static_cast<int64_t>(u);
  return Status::OK();
}

Status ByteReader::index(int64_t size, int64_t* i, const char* what) {
  uint64_t u = 0;
  GRAPHFN_RETURN_IF_ERROR(varint(&u));
  if (u >= static_cast<uint64_t>(size)) {
    return corrupt(std::string(what) + " " + std::to_string(u) + " is out of range [0, " + std::to_string(size) + ")");
  }
  *i = static_cast<int64_t>(u);
  return Status::OK();
}

Status ByteReader::bytes(void* data, size_t n, const char* what) {
  GRAPHFN_RETURN_IF_ERROR(need(n, what));
  if (n) std::memcpy(data, in_.data() + pos_, n);
  pos_ += n;
  return Status::OK();
}

}  // namespace graphfn
