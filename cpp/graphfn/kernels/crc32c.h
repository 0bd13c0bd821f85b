// CRC-32C (Castagnoli polynomial, reflected 0x82F63B78), the checksum TFRecord files carry, and
// its "mask" (a rotation plus a constant, so a CRC stored inside checksummed data does not make
// the outer CRC degenerate). Table-driven, eight bytes a step; SSE4.2's crc32 instruction when
// the build targets a CPU that has it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace graphfn {

// The CRC-32C of `data` continuing from `crc` (0 for a fresh checksum).
uint32_t crc32c_extend(uint32_t crc, const char* data, size_t n);
// The table-driven version (what crc32c_extend runs without SSE4.2); tests compare the two.
uint32_t crc32c_extend_portable(uint32_t crc, const char* data, size_t n);
inline uint32_t crc32c(std::string_view data) { return crc32c_extend(0, data.data(), data.size()); }

inline uint32_t crc32c_mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }
inline uint32_t crc32c_unmask(uint32_t masked) {
  const uint32_t rotated = masked - 0xa282ead8u;
  return (rotated >> 17) | (rotated << 15);
}

}  // namespace graphfn
