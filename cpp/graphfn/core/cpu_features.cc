#include "graphfn/core/cpu_features.h"

#include <cstdlib>
#include <cstring>

namespace graphfn {
namespace cpu {
namespace {

// Whether GRAPHFN_MAX_CPU_ISA caps the variants at the build's level.
bool capped() {
  static const bool value = [] {
    const char* env = std::getenv("GRAPHFN_MAX_CPU_ISA");
    return env != nullptr && (std::strcmp(env, "avx2") == 0 || std::strcmp(env, "AVX2") == 0);
  }();
  return value;
}

}  // namespace

bool has_avx512() {
#if GRAPHFN_HAVE_AVX512_VARIANTS
  static const bool value = !capped() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                            __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return value;
#else
  return false;
#endif
}

bool has_avx512_bf16() {
#if GRAPHFN_HAVE_AVX512_VARIANTS
  static const bool value = has_avx512() && __builtin_cpu_supports("avx512bf16");
  return value;
#else
  return false;
#endif
}

}  // namespace cpu
}  // namespace graphfn
