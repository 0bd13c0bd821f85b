// Fingerprint64: the 64-bit string fingerprint TF hashes strings into buckets with (farmhash's
// Fingerprint64, "na" variant), so that graphfn's bucket numbers equal TF's.
#pragma once
#include <cstddef>
#include <cstdint>

namespace graphfn {

uint64_t fingerprint64(const char* data, size_t length);

}  // namespace graphfn
