// The other two string hash buckets (StringToHashBucketFast lives in string_hash_kernels.cc):
// StringToHashBucketStrong, SipHash-2-4 under the 128-bit key [k0, k1] as TF keys it, and
// StringToHashBucket, TF's legacy 64-bit hash (MurmurHash64A seeded with 0xDECAFCAFFE).
#include <cstring>
#include <string>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

uint64_t load_le64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

uint64_t siphash24(uint64_t k0, uint64_t k1, const std::string& s) {
  uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL;
  uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
  auto round = [&] {
    v0 += v1, v1 = rotl(v1, 13), v1 ^= v0, v0 = rotl(v0, 32);
    v2 += v3, v3 = rotl(v3, 16), v3 ^= v2;
    v0 += v3, v3 = rotl(v3, 21), v3 ^= v0;
    v2 += v1, v1 = rotl(v1, 17), v1 ^= v2, v2 = rotl(v2, 32);
  };
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t m = load_le64(p + i);
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  uint64_t last = static_cast<uint64_t>(n & 0xFF) << 56;
  for (size_t k = 0; i + k < n; ++k) last |= static_cast<uint64_t>(p[i + k]) << (8 * k);
  v3 ^= last;
  round();
  round();
  v0 ^= last;
  v2 ^= 0xFF;
  for (int r = 0; r < 4; ++r) round();
  return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t legacy_hash64(const std::string& s) {
  const uint64_t m = 0xc6a4a7935bd1e995ULL;
  const int r = 47;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size();
  uint64_t h = 0xDECAFCAFFEULL ^ (n * m);
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t k = load_le64(p);
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
  }
  if (n > 0) {
    for (size_t k = n; k-- > 0;) h ^= static_cast<uint64_t>(p[k]) << (8 * k);
    h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}

Status hash_bucket_strong_kernel(KernelContext& c) {
  const std::vector<int64_t>* key = c.attrs.get_int_list("key");
  if (!key || key->size() != 2) return errors::InvalidArgument("Key must have 2 elements");
  const uint64_t buckets = static_cast<uint64_t>(c.attrs.get_int("num_buckets", 1));
  const Tensor& in = c.input(0);
  Tensor& out = c.allocate_output(0);
  const std::string* s = in.data<std::string>();
  int64_t* o = out.data<int64_t>();
  const uint64_t k0 = static_cast<uint64_t>((*key)[0]), k1 = static_cast<uint64_t>((*key)[1]);
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) o[i] = static_cast<int64_t>(siphash24(k0, k1, s[i]) % buckets);
  return Status::OK();
}

Status hash_bucket_legacy_kernel(KernelContext& c) {
  const uint64_t buckets = static_cast<uint64_t>(c.attrs.get_int("num_buckets", 1));
  const Tensor& in = c.input(0);
  Tensor& out = c.allocate_output(0);
  const std::string* s = in.data<std::string>();
  int64_t* o = out.data<int64_t>();
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) o[i] = static_cast<int64_t>(legacy_hash64(s[i]) % buckets);
  return Status::OK();
}

}  // namespace

void register_strings_hash_kernels(OpRegistry& reg) {
  reg.set_kernel("StringToHashBucketStrong", DType::kInvalid, &hash_bucket_strong_kernel);
  reg.set_kernel("StringToHashBucket", DType::kInvalid, &hash_bucket_legacy_kernel);
}

}  // namespace graphfn
