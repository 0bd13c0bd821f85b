#include "graphfn/kernels/sgemm_avx512.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

#include <sys/mman.h>

#include "graphfn/core/cpu_features.h"
#include "graphfn/core/thread_pool.h"

#if GRAPHFN_HAVE_AVX512_VARIANTS
#include <immintrin.h>
#endif

namespace graphfn {

#if GRAPHFN_HAVE_AVX512_VARIANTS
// (A named namespace: the kernels' unity build would merge an anonymous one with its neighbours'.)
namespace sgemm_avx512_detail {

constexpr int kMR = 12;          // rows of C per micro-tile
constexpr int kNR = 32;          // columns of C per micro-tile: two 16-float vectors
constexpr int64_t kMaxKc = 512;  // the most inner-dimension steps per block
constexpr int64_t kCacheLine = 64;
// The least work (multiply-adds) worth spreading over the pool: the hand-off costs a few
// microseconds, about 2^19 multiply-adds on one core.
constexpr double kShardWork = 1 << 19;
// Tiles (of 12 rows) a block of C computes together: their slice of A (96 rows x <= 512 steps,
// 192 KB) stays in L2 while the block walks through B's panels.
constexpr int64_t kBlockTiles = 8;

// What one micro-tile computes: C[i][j] (+)= sum over p < kc of A(i, p) * B(p, j) for i < its
// rows and j < its columns, where A(i, p) = a[i * a_stride + p] (A row-major) or
// a[p * a_stride + i] (A stored transposed), and B(p, j) = b[p * ldb + j].
struct TileArgs {
  int64_t kc;
  const float* a;
  int64_t a_stride;
  const float* b;
  int64_t ldb;
  float* c;
  int64_t ldc;
  bool load_c;      // add to C (a later k-block, or accumulate), else overwrite it
  __mmask16 last;   // the columns of the tile's last 16-float vector
  const char* prefetch;     // one cache line of this stream is fetched into L2 per step of p
  int64_t prefetch_stride;  // bytes
};

template <int kRows, int kVecs, bool kRowMajorA>
GRAPHFN_TARGET_AVX512 void micro_tile(const TileArgs& t) {
  __m512 acc[kRows][kVecs];
#pragma GCC unroll 16
  for (int i = 0; i < kRows; ++i) {
#pragma GCC unroll 16
    for (int v = 0; v < kVecs; ++v) acc[i][v] = _mm512_setzero_ps();
  }
  const int64_t kc = t.kc, ldb = t.ldb, pf_stride = t.prefetch_stride;
  const __mmask16 last = t.last;
  const float* b = t.b;
  const char* pf = t.prefetch;
  const float* a = t.a;
  const int64_t lda = t.a_stride;
  // A(i, p) = a[i * lda + p] (row-major A) or a[p * lda + i] (A stored transposed).
  const int64_t row_step = kRowMajorA ? lda : 1;
#pragma GCC unroll 2
  for (int64_t p = 0; p < kc; ++p) {
    __m512 bv[kVecs];
#pragma GCC unroll 16
    for (int v = 0; v + 1 < kVecs; ++v) bv[v] = _mm512_loadu_ps(b + 16 * v);
    bv[kVecs - 1] = _mm512_maskz_loadu_ps(last, b + 16 * (kVecs - 1));
    const float* ap = kRowMajorA ? a + p : a + p * lda;
#pragma GCC unroll 16
    for (int i = 0; i < kRows; ++i) {
      const __m512 av = _mm512_set1_ps(ap[i * row_step]);
#pragma GCC unroll 16
      for (int v = 0; v < kVecs; ++v) acc[i][v] = _mm512_fmadd_ps(av, bv[v], acc[i][v]);
    }
    _mm_prefetch(pf, _MM_HINT_T1);
    pf += pf_stride;
    b += ldb;
  }
#pragma GCC unroll 16
  for (int i = 0; i < kRows; ++i) {
    float* row = t.c + i * t.ldc;
#pragma GCC unroll 16
    for (int v = 0; v < kVecs; ++v) {
      const __mmask16 mask = v + 1 < kVecs ? __mmask16(0xFFFF) : last;
      __m512 r = acc[i][v];
      if (t.load_c) r = _mm512_add_ps(r, _mm512_maskz_loadu_ps(mask, row + 16 * v));
      _mm512_mask_storeu_ps(row + 16 * v, mask, r);
    }
  }
}

using TileFn = void (*)(const TileArgs&);

template <int kVecs, bool kRowMajorA, int... kRowsMinus1>
constexpr std::array<TileFn, kMR> tile_fns(std::integer_sequence<int, kRowsMinus1...>) {
  return {&micro_tile<kRowsMinus1 + 1, kVecs, kRowMajorA>...};
}

// The micro-tile kernel for `rows` (1..kMR) rows, `vecs` (1 or 2) vectors of columns.
TileFn tile_fn(int rows, int vecs, bool row_major_a) {
  using Rows = std::make_integer_sequence<int, kMR>;
  static constexpr std::array<TileFn, kMR> kFns[2][2] = {
      {tile_fns<1, false>(Rows{}), tile_fns<1, true>(Rows{})},
      {tile_fns<2, false>(Rows{}), tile_fns<2, true>(Rows{})}};
  return kFns[vecs - 1][row_major_a ? 1 : 0][rows - 1];
}

// One product as the tiles see it.
struct Product {
  int64_t m, n, k;
  bool ta;  // A stored k x m
  const float* a;
  int64_t lda;
  const float* b;  // B row-major (ldb), or its 32-column panels (packed)
  int64_t ldb;
  bool packed;
  float* c;
  int64_t ldc;
  bool accumulate;
  int64_t tiles, panels, kblocks;

  // The k-blocks split k evenly: the split, like everything that decides the order of the sums,
  // depends on the shape only.
  int64_t kblock_begin(int64_t kb) const { return kb * k / kblocks; }
};

Product make_product(bool ta, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                     int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  Product p{};
  p.m = m, p.n = n, p.k = k, p.ta = ta, p.a = a, p.lda = lda, p.b = b, p.ldb = ldb, p.packed = false;
  p.c = c, p.ldc = ldc, p.accumulate = accumulate;
  p.tiles = (m + kMR - 1) / kMR;
  p.panels = (n + kNR - 1) / kNR;
  p.kblocks = (k + kMaxKc - 1) / kMaxKc;
  return p;
}

// A thread's buffer for packed panels, 64-byte aligned, kept between calls (a fresh allocation
// of megabytes would page-fault on every product).
class PanelBuffer {
 public:
  ~PanelBuffer() { std::free(data_); }
  float* get(int64_t floats) {
    const size_t bytes = (static_cast<size_t>(floats) * sizeof(float) + kHugePage - 1) / kHugePage * kHugePage;
    if (bytes > capacity_) {
      std::free(data_);
      data_ = static_cast<float*>(std::aligned_alloc(kHugePage, bytes));
      if (data_ == nullptr) {
        capacity_ = 0;
        throw std::bad_alloc();
      }
      capacity_ = bytes;
#ifdef MADV_HUGEPAGE
      madvise(data_, bytes, MADV_HUGEPAGE);  // 2 MB pages where the system allows: fewer TLB misses
#endif
    }
    return data_;
  }

 private:
  static constexpr size_t kHugePage = size_t{2} << 20;
  float* data_ = nullptr;
  size_t capacity_ = 0;
};

// The calling thread's buffer for a packed B (shared with the pool's threads during one product).
float* panel_buffer(int64_t floats) {
  thread_local PanelBuffer buffer;
  return buffer.get(floats);
}

// A thread's buffer for the block of a transposed A it is computing.
float* a_block_buffer(int64_t floats) {
  thread_local PanelBuffer buffer;
  return buffer.get(floats);
}

// Up to three memory regions that a block's tiles fetch into the cache while they compute, spread
// over them in order (a batch's next product).
struct Stream {
  const char* begin[3] = {};
  int64_t bytes[3] = {};
  // The region's byte at `offset` from the stream's start, or null past its end.
  const char* at(int64_t offset) const {
    for (int r = 0; r < 3; ++r) {
      if (offset < bytes[r]) return begin[r] + offset;
      offset -= bytes[r];
    }
    return nullptr;
  }
};

// C's tiles [t0, t1) x panels [j0, j1) over the whole inner dimension: for each k-block, panel by
// panel, the panel's slice of B (kc x 32) reused by the tiles. Without a stream each tile
// fetches a share of the next panel's B.
GRAPHFN_TARGET_AVX512 void run_block(const Product& P, int64_t t0, int64_t t1, int64_t j0, int64_t j1,
                                     const Stream* stream) {
  int64_t streamed = 0;  // bytes of the stream fetched so far
  for (int64_t kb = 0; kb < P.kblocks; ++kb) {
    const int64_t k0 = P.kblock_begin(kb), kc = P.kblock_begin(kb + 1) - k0;
    // A transposed A used by several panels is first copied, tile by tile, into kc rows of 12
    // contiguous floats (its rows are lda apart: a page apart each for a wide A).
    const float* a_packed = nullptr;
    if (P.ta && j1 - j0 >= 2) {
      float* block = a_block_buffer((t1 - t0) * kMR * kc);
      for (int64_t i = t0; i < t1; ++i) {
        const int64_t rows = std::min<int64_t>(kMR, P.m - i * kMR);
        const __mmask16 mask = __mmask16((1u << rows) - 1);
        const float* src = P.a + k0 * P.lda + i * kMR;
        float* dst = block + (i - t0) * kMR * kc;
        for (int64_t p = 0; p < kc; ++p) {
          _mm512_mask_storeu_ps(dst + p * kMR, __mmask16(0xFFF), _mm512_maskz_loadu_ps(mask, src + p * P.lda));
        }
      }
      a_packed = block;
    }
    for (int64_t j = j0; j < j1; ++j) {
      const int64_t cols = std::min<int64_t>(kNR, P.n - j * kNR);
      const int vecs = cols > 16 ? 2 : 1;
      const int64_t rest = cols - 16 * (vecs - 1);
      TileArgs t;
      t.kc = kc;
      t.a_stride = a_packed != nullptr ? kMR : P.lda;
      t.ldc = P.ldc;
      t.load_c = P.accumulate || kb > 0;
      t.last = rest == 16 ? __mmask16(0xFFFF) : __mmask16((1u << rest) - 1);
      const char* next_panel;  // this k-block's slice of the next panel
      int64_t next_stride, next_lines;
      if (P.packed) {
        t.b = P.b + (j * P.k + k0) * kNR;
        t.ldb = kNR;
        next_panel = reinterpret_cast<const char*>(t.b + P.k * kNR);
        next_stride = kCacheLine;  // contiguous: kc rows of two lines, half per tile in turn
        next_lines = 2;
      } else {
        t.b = P.b + k0 * P.ldb + j * kNR;
        t.ldb = P.ldb;
        next_panel = reinterpret_cast<const char*>(t.b + kNR);
        next_stride = P.ldb * static_cast<int64_t>(sizeof(float));  // a row's lines, one per tile in turn
        next_lines = 3;
      }
      const bool fetch_next = j + 1 < j1;
      for (int64_t i = t0; i < t1; ++i) {
        const int rows = static_cast<int>(std::min<int64_t>(kMR, P.m - i * kMR));
        if (a_packed != nullptr) {
          t.a = a_packed + (i - t0) * kMR * kc;
        } else {
          t.a = P.ta ? P.a + k0 * P.lda + i * kMR : P.a + i * kMR * P.lda + k0;
        }
        t.c = P.c + i * kMR * P.ldc + j * kNR;
        const char* pf = nullptr;
        if (stream != nullptr) {
          pf = stream->at(streamed);
          streamed += kc * kCacheLine;
          t.prefetch_stride = kCacheLine;
        } else if (fetch_next) {
          const int64_t share = (i - t0) % next_lines;
          pf = P.packed ? next_panel + share * kc * kCacheLine : next_panel + share * kCacheLine;
          t.prefetch_stride = next_stride;
        }
        if (pf == nullptr) {  // nothing ahead: the tile's own B rows (already in cache)
          pf = reinterpret_cast<const char*>(t.b);
          t.prefetch_stride = t.ldb * static_cast<int64_t>(sizeof(float));
        }
        t.prefetch = pf;
        tile_fn(rows, vecs, !P.ta)(t);
      }
    }
  }
}

// Copies columns [j0*32, j1*32) of op(B) = B^T (B stored n x k, row stride ldb) into 32-column
// panels: panel j holds k rows of 32 floats, zero past column n.
GRAPHFN_TARGET_AVX512 void pack_transposed_b(const float* b, int64_t ldb, int64_t n, int64_t k, int64_t j0,
                                             int64_t j1, float* packed) {
  for (int64_t j = j0; j < j1; ++j) {
    float* panel = packed + j * k * kNR;
    const int64_t cols = std::min<int64_t>(kNR, n - j * kNR);
    for (int64_t jj = 0; jj < cols; ++jj) {
      const float* src = b + (j * kNR + jj) * ldb;
      for (int64_t p = 0; p < k; ++p) panel[p * kNR + jj] = src[p];
    }
    for (int64_t jj = cols; jj < kNR; ++jj) {
      for (int64_t p = 0; p < k; ++p) panel[p * kNR + jj] = 0.0f;
    }
  }
}


// Runs fn(l0, l1) over chunks of at most `chunk` of [0, lines) on the pool: the range is cut into
// one segment per thread; each thread takes chunks from its own segment's front, then from the
// others' (so a thread held up by the machine's load leaves the rest of its segment to the
// others). Callers compute outputs whose bits do not depend on which thread runs a chunk.
template <typename Fn>
void share_chunks(int64_t lines, int64_t chunk, int threads, Fn&& fn) {
  const int64_t segments = std::min<int64_t>(threads, lines);
  std::unique_ptr<std::atomic<int64_t>[]> next(new std::atomic<int64_t>[segments]);
  auto segment_begin = [&](int64_t s) { return s * lines / segments; };
  for (int64_t s = 0; s < segments; ++s) next[s].store(segment_begin(s), std::memory_order_relaxed);
  parallel_for(segments, 1, [&](int64_t s0, int64_t s1) {
    for (int64_t s = s0; s < s1; ++s) {
      for (int64_t d = 0; d < segments; ++d) {
        const int64_t seg = (s + d) % segments, end = segment_begin(seg + 1);
        for (int64_t l0; (l0 = next[seg].fetch_add(chunk, std::memory_order_relaxed)) < end;) {
          fn(l0, std::min(end, l0 + chunk), end);
        }
      }
    }
  });
}

// The tiles of one product over the pool: chunks of rows, or of panels for a product with few rows.
void run_threaded(const Product& P, int threads) {
  const bool by_rows = P.tiles >= 4 * threads || P.tiles >= P.panels;
  if (by_rows) {
    share_chunks(P.tiles, kBlockTiles, threads, [&](int64_t t0, int64_t t1, int64_t) { run_block(P, t0, t1, 0, P.panels, nullptr); });
  } else {
    share_chunks(P.panels, 2, threads, [&](int64_t j0, int64_t j1, int64_t) { run_block(P, 0, P.tiles, j0, j1, nullptr); });
  }
}

// Products [begin, end) of a batch on the calling thread; each product's tiles fetch the next
// one's operands (up to `fetch_end`) into the cache while they compute.
void run_batch_range(int64_t begin, int64_t end, int64_t fetch_end, bool ta, bool tb, int64_t m, int64_t n,
                     int64_t k, const float* a, const int64_t* a_index, const float* b, const int64_t* b_index,
                     float* c) {
  const int64_t lda = ta ? m : k, ldb = tb ? k : n;
  auto a_of = [&](int64_t i) { return a + (a_index ? a_index[i] : i) * m * k; };
  auto b_of = [&](int64_t i) { return b + (b_index ? b_index[i] : i) * k * n; };
  for (int64_t i = begin; i < end; ++i) {
    Product P = make_product(ta, m, n, k, a_of(i), lda, b_of(i), ldb, c + i * m * n, n, false);
    if (tb) {
      float* packed = panel_buffer(P.panels * k * kNR);
      pack_transposed_b(P.b, ldb, n, k, 0, P.panels, packed);
      P.b = packed;
      P.packed = true;
    }
    Stream next;
    if (i + 1 < fetch_end) {
      next.begin[0] = reinterpret_cast<const char*>(a_of(i + 1));
      next.begin[1] = reinterpret_cast<const char*>(b_of(i + 1));
      next.begin[2] = reinterpret_cast<const char*>(c + (i + 1) * m * n);
      next.bytes[0] = m * k * static_cast<int64_t>(sizeof(float));
      next.bytes[1] = k * n * static_cast<int64_t>(sizeof(float));
      next.bytes[2] = m * n * static_cast<int64_t>(sizeof(float));
    }
    run_block(P, 0, P.tiles, 0, P.panels, i + 1 < fetch_end ? &next : nullptr);
  }
}

}  // namespace sgemm_avx512_detail

bool sgemm_avx512_available() { return cpu::has_avx512(); }

void sgemm_avx512(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                  int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  using namespace sgemm_avx512_detail;
  Product P = make_product(ta, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
  const int threads = parallel_threads();
  const double work = static_cast<double>(m) * n * k;
  const bool threaded = threads > 1 && work >= 2 * kShardWork;
  // A transposed B is packed (its columns are rows of B); an untransposed one is read in place:
  // packing a 1000 x 1000 B was 4 % of the product's CPU time (perf) and saved less.
  if (tb) {
    float* packed = panel_buffer(P.panels * k * kNR);
    const int64_t min_panels = std::max<int64_t>(1, static_cast<int64_t>(kShardWork / (16.0 * k * kNR)));
    parallel_for_if_large(P.panels, threaded ? min_panels : P.panels,
                          [&](int64_t j0, int64_t j1) { pack_transposed_b(b, ldb, n, k, j0, j1, packed); });
    P.b = packed;
    P.packed = true;
  }
  if (!threaded) {
    for (int64_t t0 = 0; t0 < P.tiles; t0 += kBlockTiles) {
      run_block(P, t0, std::min(P.tiles, t0 + kBlockTiles), 0, P.panels, nullptr);
    }
    return;
  }
  run_threaded(P, threads);
}

void sgemm_avx512_batched(int64_t batches, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a,
                          const int64_t* a_index, const float* b, const int64_t* b_index, float* c) {
  using namespace sgemm_avx512_detail;
  const int threads = parallel_threads();
  const double work = static_cast<double>(m) * n * k;
  if (threads < 2 || work * batches < 2 * kShardWork) {
    return run_batch_range(0, batches, batches, ta, tb, m, n, k, a, a_index, b, b_index, c);
  }
  // Chunks of about 2^21 multiply-adds (4 products of 128^3): the products of a chunk fetch each
  // other's operands, and a late thread's share is still small.
  const int64_t chunk = std::max<int64_t>(1, static_cast<int64_t>((1 << 21) / work));
  share_chunks(batches, chunk, threads, [&](int64_t i0, int64_t i1, int64_t segment_end) {
    run_batch_range(i0, i1, std::min(segment_end, i1 + 1), ta, tb, m, n, k, a, a_index, b, b_index, c);
  });
}

#else  // no AVX-512 variants in this build (not x86-64 with GCC or Clang)

bool sgemm_avx512_available() { return false; }
void sgemm_avx512(bool, bool, int64_t, int64_t, int64_t, const float*, int64_t, const float*, int64_t, float*,
                  int64_t, bool) {
  std::abort();  // unreachable: callers check sgemm_avx512_available()
}
void sgemm_avx512_batched(int64_t, bool, bool, int64_t, int64_t, int64_t, const float*, const int64_t*, const float*,
                          const int64_t*, float*) {
  std::abort();  // unreachable: callers check sgemm_avx512_available()
}

#endif

}  // namespace graphfn
