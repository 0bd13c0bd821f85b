#include "graphfn/kernels/gemm_bf16.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "graphfn/core/cpu_features.h"
#include "graphfn/core/thread_pool.h"

#if GRAPHFN_HAVE_AVX512_VARIANTS
#include <immintrin.h>
#endif

// How the product runs (measurements in docs/design.md, "bfloat16 products"):
//  - op(B) is packed into panels of 32 columns: for each pair of k values, 32 columns x 2
//    values (64 bfloat16, two vectors), the layout vdpbf16ps multiplies; a k beyond the end and a
//    column beyond the edge are zeros. Work units go column block by column block, and a thread
//    packs a block's panels when it starts on that block.
//  - op(A) is packed per work unit (kRowBlock rows x kColumnBlock columns of C) into tiles of 12
//    rows of pairs of k values (one 32-bit word a pair), kPairBlock words apart: the tile kernel
//    finds each row's word at a fixed offset, and an untransposed A packs by copying rows.
//  - a register tile holds 12 rows x 32 columns of sums (24 vectors of 16 floats): per pair of k
//    values it loads two vectors of B, broadcasts each row's word of A, and does 24 vdpbf16ps.
//  - k beyond kPairBlock pairs is cut into blocks (a panel of B stays in the L1/L2 cache); the
//    sums between blocks wait as floats in the unit's buffer, which is exact, so every result
//    is the same sum in the same order whatever the blocks and the threads.

namespace graphfn {

#if GRAPHFN_HAVE_AVX512_VARIANTS
// A namespace named after the file: the kernels' unity build compiles several files as one,
// where anonymous namespaces would share their names.
namespace gemm_bf16_detail {

constexpr int kTileRows = 12;
constexpr int kPanelColumns = 32;
constexpr int64_t kPairBlock = 256;                 // pairs of k values per block: a 32 KiB panel
constexpr int64_t kRowBlock = 8 * kTileRows;        // rows of C per work unit
constexpr int64_t kColumnBlock = 8 * kPanelColumns;  // columns of C per work unit

// op(X)'s element (row, col) of a matrix stored with row stride ld, transposed or not.
inline uint16_t element(const uint16_t* x, int64_t ld, bool transposed, int64_t row, int64_t col) {
  return transposed ? x[col * ld + row] : x[row * ld + col];
}

// The panel of op(B)'s columns [j0, j0 + 32) and all k: pairs of k values, 64 values each.
GRAPHFN_TARGET_AVX512_BF16 void pack_b_panel(const uint16_t* b, int64_t ldb, bool tb, int64_t k, int64_t n, int64_t j0,
                                             uint16_t* panel) {
  const int64_t pairs = (k + 1) / 2, cols = std::min<int64_t>(kPanelColumns, n - j0);
  if (!tb && cols == kPanelColumns) {
    // Rows 2q and 2q + 1 of B interleaved: two permutes of two 32-value loads per pair.
    alignas(64) uint16_t lo_index[32], hi_index[32];
    for (int c = 0; c < 16; ++c) {
      lo_index[2 * c] = static_cast<uint16_t>(c);
      lo_index[2 * c + 1] = static_cast<uint16_t>(32 + c);
      hi_index[2 * c] = static_cast<uint16_t>(16 + c);
      hi_index[2 * c + 1] = static_cast<uint16_t>(48 + c);
    }
    const __m512i lo = _mm512_load_si512(lo_index), hi = _mm512_load_si512(hi_index);
    for (int64_t q = 0; q < pairs; ++q) {
      const __m512i even = _mm512_loadu_si512(b + 2 * q * ldb + j0);
      const __m512i odd = 2 * q + 1 < k ? _mm512_loadu_si512(b + (2 * q + 1) * ldb + j0) : _mm512_setzero_si512();
      _mm512_storeu_si512(panel + q * 64, _mm512_permutex2var_epi16(even, lo, odd));
      _mm512_storeu_si512(panel + q * 64 + 32, _mm512_permutex2var_epi16(even, hi, odd));
    }
    return;
  }
  if (tb && 31 * ldb + 1 < (int64_t{1} << 31)) {
    // Column j0 + c of op(B) is row j0 + c of the stored B: its pair q is one 32-bit word at
    // b + (j0 + c) * ldb + 2q, so a panel row is two gathers of 16 words. The last pair of an odd
    // k has one value: read alone, below.
    alignas(64) int32_t offsets[16];
    for (int c = 0; c < 16; ++c) offsets[c] = static_cast<int32_t>(c * ldb);
    const __m512i left = _mm512_load_si512(offsets);
    const __m512i right = _mm512_add_epi32(left, _mm512_set1_epi32(static_cast<int32_t>(16 * ldb)));
    const __mmask16 left_mask = cols >= 16 ? __mmask16(0xffff) : __mmask16((1u << cols) - 1);
    const __mmask16 right_mask = cols >= 32 ? __mmask16(0xffff) : cols <= 16 ? __mmask16(0) : __mmask16((1u << (cols - 16)) - 1);
    const uint16_t* base = b + j0 * ldb;
    for (int64_t q = 0; q < k / 2; ++q) {
      const __m512i l = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), left_mask, left, base + 2 * q, 2);
      const __m512i r = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), right_mask, right, base + 2 * q, 2);
      _mm512_storeu_si512(panel + q * 64, l);
      _mm512_storeu_si512(panel + q * 64 + 32, r);
    }
    if (k & 1) {
      uint16_t* last = panel + (k / 2) * 64;
      std::memset(last, 0, sizeof(uint16_t) * 64);
      for (int64_t c = 0; c < cols; ++c) last[c * 2] = base[c * ldb + k - 1];
    }
    return;
  }
  std::memset(panel, 0, sizeof(uint16_t) * pairs * 64);
  for (int64_t c = 0; c < cols; ++c) {
    for (int64_t p = 0; p < k; ++p) panel[(p / 2) * 64 + c * 2 + (p & 1)] = element(b, ldb, tb, p, j0 + c);
  }
}

// Rows [i0, i0 + rows) (rows <= 12) of op(A), pairs [q0, q1) of k, as a tile of 12 rows of
// kPairBlock words (a word: the pair of values 2q, 2q + 1 of a row): copies of A's rows when A
// is stored untransposed; otherwise rows 2q and 2q + 1 of the stored A interleaved, as B's
// panels are. Rows beyond `rows` and a k beyond the end are zeros.
GRAPHFN_TARGET_AVX512_BF16 void pack_a_tile(const uint16_t* a, int64_t lda, bool ta, int64_t k, int64_t i0, int64_t rows,
                                            int64_t q0, int64_t q1, uint32_t* tile) {
  const int64_t pairs = q1 - q0;
  if (!ta) {
    for (int64_t r = 0; r < kTileRows; ++r) {
      uint32_t* dst = tile + r * kPairBlock;
      if (r >= rows) {
        std::memset(dst, 0, sizeof(uint32_t) * pairs);
        continue;
      }
      const uint16_t* row = a + (i0 + r) * lda + 2 * q0;
      const int64_t values = std::min(2 * pairs, k - 2 * q0);
      std::memcpy(dst, row, sizeof(uint16_t) * values);
      if (values < 2 * pairs) reinterpret_cast<uint16_t*>(dst)[values] = 0;  // k odd: the last pair's second value
    }
    return;
  }
  // Word (q, r) from stored rows 2q and 2q + 1, columns i0 + r: 16 of each row interleaved.
  alignas(64) uint16_t index[32];
  for (int c = 0; c < 16; ++c) {
    index[2 * c] = static_cast<uint16_t>(c);
    index[2 * c + 1] = static_cast<uint16_t>(32 + c);
  }
  const __m512i interleave = _mm512_load_si512(index);
  const __mmask32 columns = static_cast<__mmask32>((1u << rows) - 1);
  alignas(64) uint32_t words[16];
  for (int64_t q = q0; q < q1; ++q) {
    const __m512i even = _mm512_maskz_loadu_epi16(columns, a + 2 * q * lda + i0);
    const __m512i odd = 2 * q + 1 < k ? _mm512_maskz_loadu_epi16(columns, a + (2 * q + 1) * lda + i0) : _mm512_setzero_si512();
    _mm512_store_si512(words, _mm512_permutex2var_epi16(even, interleave, odd));
    for (int r = 0; r < kTileRows; ++r) tile[r * kPairBlock + (q - q0)] = words[r];
  }
}

// Where a register tile's sums go: resumed from and left in `partial` (row stride kColumnBlock)
// between blocks of k, rounded into C after the last.
struct TileOutput {
  float* partial;
  bool resume, finish;
  uint16_t* c;
  int64_t ldc;
  int rows, cols;
};

// A register tile of MR rows x 32 columns over `pairs` pairs of k.
template <int MR>
GRAPHFN_TARGET_AVX512_BF16 void bf16_tile(int64_t pairs, const uint32_t* a, const uint16_t* b, const TileOutput& out) {
  __m512 left[MR], right[MR];
#pragma GCC unroll 12
  for (int r = 0; r < MR; ++r) {
    left[r] = out.resume ? _mm512_loadu_ps(out.partial + r * kColumnBlock) : _mm512_setzero_ps();
    right[r] = out.resume ? _mm512_loadu_ps(out.partial + r * kColumnBlock + 16) : _mm512_setzero_ps();
  }
  for (int64_t q = 0; q < pairs; ++q) {
    const __m512bh b0 = (__m512bh)_mm512_loadu_si512(b + q * 64);
    const __m512bh b1 = (__m512bh)_mm512_loadu_si512(b + q * 64 + 32);
#pragma GCC unroll 12
    for (int r = 0; r < MR; ++r) {
      const __m512bh av = (__m512bh)_mm512_set1_epi32(static_cast<int>(a[r * kPairBlock + q]));
      left[r] = _mm512_dpbf16_ps(left[r], av, b0);
      right[r] = _mm512_dpbf16_ps(right[r], av, b1);
    }
  }
  if (!out.finish) {
#pragma GCC unroll 12
    for (int r = 0; r < MR; ++r) {
      _mm512_storeu_ps(out.partial + r * kColumnBlock, left[r]);
      _mm512_storeu_ps(out.partial + r * kColumnBlock + 16, right[r]);
    }
    return;
  }
  const __mmask16 mask_left = out.cols >= 16 ? __mmask16(0xffff) : __mmask16((1u << out.cols) - 1);
  const __mmask16 mask_right = out.cols >= 32 ? __mmask16(0xffff) : out.cols <= 16 ? __mmask16(0) : __mmask16((1u << (out.cols - 16)) - 1);
#pragma GCC unroll 12
  for (int r = 0; r < MR; ++r) {
    if (r >= out.rows) break;
    uint16_t* row = out.c + r * out.ldc;
    _mm256_mask_storeu_epi16(row, mask_left, (__m256i)_mm512_cvtneps_pbh(left[r]));
    _mm256_mask_storeu_epi16(row + 16, mask_right, (__m256i)_mm512_cvtneps_pbh(right[r]));
  }
}

// The tile for `rows` rows: the smallest register tile that holds them.
void run_tile(int64_t pairs, const uint32_t* a, const uint16_t* b, const TileOutput& out) {
  if (out.rows <= 1) return bf16_tile<1>(pairs, a, b, out);
  if (out.rows <= 2) return bf16_tile<2>(pairs, a, b, out);
  if (out.rows <= 4) return bf16_tile<4>(pairs, a, b, out);
  if (out.rows <= 8) return bf16_tile<8>(pairs, a, b, out);
  bf16_tile<kTileRows>(pairs, a, b, out);
}

// Per-thread buffers of a work unit: op(A)'s tiles for one block of k, and the sums between blocks.
struct UnitBuffers {
  std::vector<uint16_t> b_panels;  // the panels of the column block last packed
  std::vector<uint32_t> a_tiles;
  std::vector<float> partial;
};

// gemm_bf16's work (below) for m, n, k > 0.
void multiply(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const uint16_t* a, int64_t lda, const uint16_t* b,
              int64_t ldb, uint16_t* c, int64_t ldc) {
  const int64_t pairs = (k + 1) / 2, panel_size = pairs * 64;
  // Work units of C: row blocks of at most 96 rows, sharing the 12-row tiles out evenly (equal
  // units keep the threads' shares equal), times column blocks of 256 columns, or fewer (whole
  // panels) when that leaves the pool's threads without two units each. Any cut gives the same bits.
  const int64_t tiles = (m + kTileRows - 1) / kTileRows, row_blocks = (m + kRowBlock - 1) / kRowBlock;
  auto row_block_begin = [&](int64_t r) { return std::min(m, (r * tiles / row_blocks) * kTileRows); };
  int64_t column_block = kColumnBlock;
  while (column_block > kPanelColumns && row_blocks * ((n + column_block - 1) / column_block) < 2 * parallel_threads()) {
    column_block /= 2;
  }
  const int64_t column_blocks = (n + column_block - 1) / column_block;
  const int64_t k_blocks = (pairs + kPairBlock - 1) / kPairBlock;
  // Work units large enough to be worth a thread's hand-off (a few microseconds).
  const double unit_work = static_cast<double>(std::min(m, kRowBlock)) * std::min(n, column_block) * k;
  const int64_t min_units = std::max<int64_t>(1, static_cast<int64_t>((1 << 19) / std::max(unit_work, 1.0)));
  parallel_for_if_large(row_blocks * column_blocks, min_units, [&](int64_t u0, int64_t u1) {
    thread_local UnitBuffers buffers;
    int64_t packed_block = -1;  // the column block whose panels are in buffers.b_panels
    for (int64_t u = u0; u < u1; ++u) {
      // Units go column block by column block, so a thread packs the panels of op(B) it needs
      // once per block it is given (no pass over all of B before the units, no barrier).
      const int64_t cb = u / row_blocks;
      const int64_t i0 = row_block_begin(u % row_blocks), j0 = cb * column_block;
      if (cb != packed_block) {
        const int64_t block_panels = (std::min(column_block, n - j0) + kPanelColumns - 1) / kPanelColumns;
        buffers.b_panels.resize(static_cast<size_t>(block_panels * panel_size));
        for (int64_t p = 0; p < block_panels; ++p) {
          pack_b_panel(b, ldb, tb, k, n, j0 + p * kPanelColumns, buffers.b_panels.data() + p * panel_size);
        }
        packed_block = cb;
      }
      const int64_t unit_rows = row_block_begin(u % row_blocks + 1) - i0, unit_cols = std::min(column_block, n - j0);
      const int64_t unit_tiles = (unit_rows + kTileRows - 1) / kTileRows;
      if (k_blocks > 1) buffers.partial.resize(static_cast<size_t>(kRowBlock * kColumnBlock));
      for (int64_t kb = 0; kb < k_blocks; ++kb) {
        const int64_t q0 = kb * kPairBlock, q1 = std::min(pairs, q0 + kPairBlock);
        buffers.a_tiles.resize(static_cast<size_t>(unit_tiles * kTileRows * kPairBlock));
        for (int64_t t = 0; t < unit_tiles; ++t) {
          pack_a_tile(a, lda, ta, k, i0 + t * kTileRows, std::min<int64_t>(kTileRows, unit_rows - t * kTileRows), q0, q1,
                      buffers.a_tiles.data() + t * kTileRows * kPairBlock);
        }
        for (int64_t jc = 0; jc < unit_cols; jc += kPanelColumns) {
          const uint16_t* panel = buffers.b_panels.data() + (jc / kPanelColumns) * panel_size + q0 * 64;
          for (int64_t t = 0; t < unit_tiles; ++t) {
            const int64_t r0 = t * kTileRows;
            TileOutput out;
            out.partial = k_blocks > 1 ? buffers.partial.data() + r0 * kColumnBlock + jc : nullptr;
            out.resume = kb > 0;
            out.finish = kb == k_blocks - 1;
            out.c = c + (i0 + r0) * ldc + j0 + jc;
            out.ldc = ldc;
            out.rows = static_cast<int>(std::min<int64_t>(kTileRows, unit_rows - r0));
            out.cols = static_cast<int>(std::min<int64_t>(kPanelColumns, unit_cols - jc));
            run_tile(q1 - q0, buffers.a_tiles.data() + t * kTileRows * kPairBlock, panel, out);
          }
        }
      }
    }
  });
}

}  // namespace gemm_bf16_detail

bool gemm_bf16_available() { return cpu::has_avx512_bf16(); }

void gemm_bf16(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const uint16_t* a, int64_t lda, const uint16_t* b,
               int64_t ldb, uint16_t* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, uint16_t(0));
    return;
  }
  gemm_bf16_detail::multiply(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
}

#else  // no AVX-512 variants on this architecture: gemm_bf16_available() says so, and callers
       // take the float path

bool gemm_bf16_available() { return false; }

void gemm_bf16(bool, bool, int64_t, int64_t, int64_t, const uint16_t*, int64_t, const uint16_t*, int64_t, uint16_t*,
               int64_t) {}

#endif

}  // namespace graphfn
