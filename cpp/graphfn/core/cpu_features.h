// What the running CPU can do beyond the instruction set the build targets (x86-64-v3 by
// default), for kernels that carry a faster variant for newer CPUs and pick it at run time.
//
// A variant is a function compiled for more instructions with GCC's target attribute
// (GRAPHFN_TARGET_AVX512 below), in an ordinary file of the build: only that function holds the
// newer instructions, so the wheel still runs on any CPU of the build's level. Such a function
// calls only intrinsics and helpers it inlines (`flatten`); a template or inline function it
// left out of line would be compiled for the build's level, not the variant's, and a lambda does
// not inherit the attribute. Variants go in a namespace of their file's own (an anonymous one
// would be shared by a unity batch), so that the linker never merges one with another function
// of the same name (docs/building.md, "Run-time variants").
//
// GRAPHFN_MAX_CPU_ISA=avx2 (read once, at first use) turns the variants off, so that tests and
// benchmarks can run the build-level code on a CPU that has more (docs/performance.md).
#pragma once

namespace graphfn {
namespace cpu {

// AVX-512 F, BW, DQ and VL (the x86-64-v4 level: Intel Skylake-SP and later, AMD Zen 4 and later).
bool has_avx512();
// AVX-512 BF16 (vdpbf16ps, vcvtne2ps2bf16): Intel Cooper Lake / Sapphire Rapids, AMD Zen 4.
bool has_avx512_bf16();

}  // namespace cpu
}  // namespace graphfn

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GRAPHFN_HAVE_AVX512_VARIANTS 1
// A function compiled for AVX-512 (F, BW, DQ, VL and the x86-64-v3 extensions), with every call in it inlined.
#define GRAPHFN_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c,bmi,bmi2,lzcnt,popcnt"), flatten))
// The same plus AVX-512 BF16.
#define GRAPHFN_TARGET_AVX512_BF16 \
  __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512bf16,avx2,fma,f16c,bmi,bmi2,lzcnt,popcnt"), flatten))
#else
#define GRAPHFN_HAVE_AVX512_VARIANTS 0
#endif
