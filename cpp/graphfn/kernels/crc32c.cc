#include "graphfn/kernels/crc32c.h"

#include <array>
#include <cstring>

#if defined(__SSE4_2__)
#include <nmmintrin.h>
#endif

namespace graphfn {
namespace {

constexpr uint32_t kCrc32cPolynomial = 0x82F63B78u;  // Castagnoli, bit-reversed

// tables[k][b]: the CRC of byte b followed by k zero bytes (slicing-by-8).
struct Crc32cTables {
  std::array<std::array<uint32_t, 256>, 8> t{};
  Crc32cTables() {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t crc = b;
      for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? kCrc32cPolynomial : 0);
      t[0][b] = crc;
    }
    for (int k = 1; k < 8; ++k) {
      for (uint32_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff];
    }
  }
};

const Crc32cTables& crc32c_tables() {
  static const Crc32cTables instance;
  return instance;
}

}  // namespace

uint32_t crc32c_extend(uint32_t crc, const char* data, size_t n) {
#if defined(__SSE4_2__)
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  uint64_t c64 = ~crc;
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    c64 = _mm_crc32_u64(c64, word);
  }
  uint32_t c = static_cast<uint32_t>(c64);
  for (; n > 0; --n, ++p) c = _mm_crc32_u8(c, *p);
  return ~c;
#else
  return crc32c_extend_portable(crc, data, n);
#endif
}

uint32_t crc32c_extend_portable(uint32_t crc, const char* data, size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  uint32_t c = ~crc;
  const auto& t = crc32c_tables().t;
  for (; n >= 8; n -= 8, p += 8) {
    // little-endian word order: the first four bytes fold into the running CRC
    const uint32_t lo = c ^ (uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24);
    c = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^ t[3][p[4]] ^
        t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
  }
  for (; n > 0; --n, ++p) c = (c >> 8) ^ t[0][(c ^ *p) & 0xff];
  return ~c;
}

}  // namespace graphfn
