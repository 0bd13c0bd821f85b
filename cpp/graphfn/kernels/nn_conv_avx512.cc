// The AVX-512 variants of the float convolution tiles (kernels/nn_conv_tiles.h,
// nn_conv_winograd.h): the same templates as the AVX2 tiles, instantiated with 16-float
// vectors inside functions compiled for AVX-512 (GRAPHFN_TARGET_AVX512, core/cpu_features.h,
// which inline everything they call), and chosen at run time where cpu::has_avx512() says so.
//
// Tile shapes: 24 of the 32 zmm registers hold the sums, so each filter vector (or dy vector) and
// each broadcast input value feeds twice the multiply-adds of the AVX2 tiles' 12 ymm sums. The
// sums run in the same order as the AVX2 tiles', so both paths give the same bits.
// The 64-byte vectors are only passed between functions inlined into the variants below.
#pragma GCC diagnostic ignored "-Wpsabi"

#include "graphfn/core/cpu_features.h"
#include "graphfn/kernels/nn_conv_direct_tiles.h"
#include "graphfn/kernels/nn_conv_tiles.h"
#include "graphfn/kernels/nn_conv_winograd.h"

namespace graphfn {
namespace conv_tiles {
namespace {

#if GRAPHFN_HAVE_AVX512_VARIANTS
// 6 pixels x 64 channels (4 vectors): 24 sums, 4 filter loads and 6 broadcasts per input channel.
GRAPHFN_TARGET_AVX512 void run_chunk_avx512_wide(const ChunkWork& w) { run_chunk<Vec16, 4, 6>(w); }
// 12 pixels x 32 channels (2 vectors), for outputs of fewer than 64 channels.
GRAPHFN_TARGET_AVX512 void run_chunk_avx512_narrow(const ChunkWork& w) { run_chunk<Vec16, 2, 12>(w); }
#endif

}  // namespace

TileShape avx512_shape(int64_t out_depth) {
#if GRAPHFN_HAVE_AVX512_VARIANTS
  if (out_depth >= 64) return {64, 6, &run_chunk_avx512_wide};
  return {32, 12, &run_chunk_avx512_narrow};
#else
  return avx2_shape();
#endif
}

TileShape shape_for(int64_t out_depth) { return cpu::has_avx512() ? avx512_shape(out_depth) : avx2_shape(); }

}  // namespace conv_tiles

namespace conv_direct_tiles {

#if GRAPHFN_HAVE_AVX512_VARIANTS
GRAPHFN_TARGET_AVX512 void filter_block_avx512(const FilterBlock<float>& w) {
  filter_block<float, conv_tiles::Vec16, 2, 12>(w);
}
#else
void filter_block_avx512(const FilterBlock<float>& w) { filter_block_avx2<float>(w); }
#endif

}  // namespace conv_direct_tiles

namespace conv_winograd {
namespace {

#if GRAPHFN_HAVE_AVX512_VARIANTS
// The products in the forward tiles' shapes above.
GRAPHFN_TARGET_AVX512 void run_block_avx512_wide(const BlockWork& w) { run_block<conv_tiles::Vec16, 4, 6>(w); }
GRAPHFN_TARGET_AVX512 void run_block_avx512_narrow(const BlockWork& w) { run_block<conv_tiles::Vec16, 2, 12>(w); }
// The filter gradient's sums: 4 input channels x 64 output channels (32 of them divide into 4s, and 6 x 64 with a remainder of 1-channel passes measured slower), or 12 x 32.
GRAPHFN_TARGET_AVX512 void run_filter_part_avx512_wide(const FilterWork& w) {
  run_filter_part<conv_tiles::Vec16, 4, 4>(w);
}
GRAPHFN_TARGET_AVX512 void run_filter_part_avx512_narrow(const FilterWork& w) {
  run_filter_part<conv_tiles::Vec16, 2, 12>(w);
}
#endif

}  // namespace

BlockShape avx512_shape(int64_t out_depth) {
#if GRAPHFN_HAVE_AVX512_VARIANTS
  if (out_depth >= 64) return {64, &run_block_avx512_wide};
  return {32, &run_block_avx512_narrow};
#else
  return avx2_shape();
#endif
}

BlockShape shape_for(int64_t out_depth) { return cpu::has_avx512() ? avx512_shape(out_depth) : avx2_shape(); }

FilterShape filter_avx512_shape(int64_t out_depth) {
#if GRAPHFN_HAVE_AVX512_VARIANTS
  if (out_depth >= 64) return {64, &run_filter_part_avx512_wide};
  return {32, &run_filter_part_avx512_narrow};
#else
  return filter_avx2_shape();
#endif
}

FilterShape filter_shape_for(int64_t out_depth) {
  return cpu::has_avx512() ? filter_avx512_shape(out_depth) : filter_avx2_shape();
}

}  // namespace conv_winograd
}  // namespace graphfn
