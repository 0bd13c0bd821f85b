// Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2, 3",
// SC 2011): a counter-based generator. Block i of a stream is a pure function of (key, counter i),
// so samples are reproducible on every platform, independent of threading, and any block can be
// computed without the ones before it.
#pragma once
#include <array>
#include <cstdint>

namespace graphfn {
namespace philox {

using Block = std::array<uint32_t, 4>;  // a 128-bit counter in, 128 random bits out
using Key = std::array<uint32_t, 2>;

inline Block philox4x32_10(Block ctr, Key key) {
  constexpr uint32_t kMul0 = 0xD2511F53, kMul1 = 0xCD9E8D57;    // round multipliers
  constexpr uint32_t kBump0 = 0x9E3779B9, kBump1 = 0xBB67AE85;  // key schedule (golden ratio, sqrt 3)
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += kBump0;
      key[1] += kBump1;
    }
    const uint64_t p0 = uint64_t{kMul0} * ctr[0];
    const uint64_t p1 = uint64_t{kMul1} * ctr[2];
    ctr = {static_cast<uint32_t>(p1 >> 32) ^ ctr[1] ^ key[0], static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ ctr[3] ^ key[1], static_cast<uint32_t>(p0)};
  }
  return ctr;
}

// A stream: a key and a 64-bit nonce (counter words 2-3); words 0-1 count blocks from `first_block`.
struct Stream {
  Key key{};
  uint64_t nonce = 0;
  uint64_t first_block = 0;

  Block block(uint64_t i) const {
    const uint64_t b = first_block + i;
    return philox4x32_10({static_cast<uint32_t>(b), static_cast<uint32_t>(b >> 32),
                          static_cast<uint32_t>(nonce), static_cast<uint32_t>(nonce >> 32)},
                         key);
  }
};

}  // namespace philox
}  // namespace graphfn
