// Chapter 10b, step 2: below WMMA, to the instructions it stands for. WMMA (chapter 10's TF32 step)
// hides which lane holds which element of a fragment, so it loads fragments with ordinary shared
// loads from a padded tile. Here the warp says it itself: ldmatrix loads four 8 x 16-byte matrices
// from shared memory, one row address per lane, straight into the registers mma.sync expects, and
// mma.sync.m16n8k8 (TF32) or m16n8k16 (BF16) multiplies them (mma_sync.hpp; which lane holds what
// is tensor_core_layout.hpp's, from the PTX ISA).
//
// A block of 8 warps computes a 128 x 128 tile of C, each warp a 64 x 32 warp tile as 4 x 4
// accumulator fragments of 16 x 8. K goes in steps of 128 bytes of each operand (32 TF32 or 64 BF16
// elements): A's tile is 128 rows of 128 bytes, B's is cut into panels of 128-byte rows (BK rows
// each), and both are stored with the 128-byte swizzle instead of padding: the 16-byte chunks of
// each row XORed with row % 8, so the 8 rows of an ldmatrix matrix fall on 8 different bank
// groups. That is the layout TMA writes and wgmma reads (the steps after this one), so they change
// who moves the tiles, not where the elements are. Loads are cp.async, 16 bytes per chunk when
// the chunk is inside or outside the matrix as a whole (k and n multiples of a chunk), else element
// by element; zeros past the edges, so any m, n, k works and the tail tiles need no special case
// until the stores, which are bound-checked element by element.
//
// TF32 B is the exception to ldmatrix: B is row-major (n contiguous) but the mma wants each lane's
// B elements along k, and ldmatrix can transpose only 16-bit elements. So TF32 B fragments are
// gathered with 32-bit shared loads from the swizzled panel (2-way bank conflicts: 4 rows x 2
// chunks of a panel map onto 4 bank groups); BF16 B comes with ldmatrix .trans.
#include "tensor_core_launchers.hpp"

#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "gpgpu/cuda/check.hpp"
#include "mma_sync.hpp"
#include "swizzled_staging.hpp"
#include "tensor_core_layout.hpp"

namespace gpgpu::blas::cuda {
namespace {

/// The launch: a 128 x 128 tile of C per block of 8 warps, K in steps of 128 bytes per row.
template <typename In>
struct MmaSyncTiles {
  static constexpr int BM = 128, BN = 128, kThreads = 256;
  static constexpr int kRowBytes = 128;                                // one row of the 128B swizzle
  static constexpr int BK = kRowBytes / static_cast<int>(sizeof(In));  // 32 TF32 or 64 BF16 elements
  static constexpr int kChunk = kChunkElements<In>;                     // elements per 16-byte chunk
  static constexpr int kMmaK = std::is_same_v<In, float> ? 8 : 16;     // m16n8k8.tf32, m16n8k16.bf16
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
// TF32 and BF16 mma.sync begin with compute capability 8.0: a stub for older targets of a fat
// binary, as chapter 10's WMMA step (the chapter's host code refuses such GPUs before launching).
template <typename In, bool Aligned>
__global__ void gemm_mma_sync(TensorCoreArgs<In>) {
  __trap();
}
#else
//! [mma_sync]
template <typename In, bool Aligned>
__global__ void __launch_bounds__(256) gemm_mma_sync(TensorCoreArgs<In> g) {
  using Tiles = MmaSyncTiles<In>;
  constexpr bool kTf32 = std::is_same_v<In, float>;
  constexpr int BM = Tiles::BM, BN = Tiles::BN, BK = Tiles::BK, E = Tiles::kChunk, kRow = Tiles::kRowBytes;
  constexpr int kPanel = BK * kRow;  // bytes of one panel of B: BK rows of BK columns (128 bytes)
  constexpr int kWarpM = 64, kWarpN = 32, kFragsM = kWarpM / 16, kFragsN = kWarpN / 8;
  constexpr tc::Swizzle kSwizzle = tc::Swizzle::b128;
  // Aligned to a swizzle atom (1024 bytes), as TMA and wgmma will need; here only for the banks.
  __shared__ __align__(1024) unsigned char as[BM * kRow];
  __shared__ __align__(1024) unsigned char bs[BN / BK * kPanel];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int w_row = warp / (BN / kWarpN) * kWarpM, w_col = warp % (BN / kWarpN) * kWarpN;
  const tc::RowChunk ld = tc::ldmatrix_x4_row(lane);  // the row this lane points ldmatrix at
  float acc[kFragsM][kFragsN][4] = {};
  for (int p0 = 0; p0 < g.k; p0 += BK) {
    stage_rows_128b<In, Aligned, BM, Tiles::kThreads>(as, g.a, g.m, g.k, row0, p0);  // A: BM rows of 8 chunks
    for (int e = t; e < BK * BN / E; e += Tiles::kThreads) {  // B: BK rows of BN / E chunks, 8 per panel
      const int r = e / (BN / E), c = e % (BN / E);
      load_chunk<In, Aligned>(bs + c / 8 * kPanel + tc::swizzled_offset(r, c % 8 * 16, kRow, kSwizzle), g.b, g.k, g.n,
                              p0 + r, col0 + c * E);
    }
    copy_async_commit();
    copy_async_wait<0>();
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += Tiles::kMmaK) {
      const int chunk0 = kk / E;  // the k-step's first chunk in a row (it spans two)
      std::uint32_t a[kFragsM][4], b[kFragsN][2];
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
        ldmatrix_x4(a[i], as + tc::swizzled_offset(w_row + 16 * i + ld.row, (chunk0 + ld.chunk) * 16, kRow, kSwizzle));
        if constexpr (kTf32) {
#pragma unroll
          for (int x = 0; x < 4; ++x) a[i][x] = to_tf32(__uint_as_float(a[i][x]));
        }
      }
      if constexpr (kTf32) {
#pragma unroll
        for (int j = 0; j < kFragsN; ++j)
#pragma unroll
          for (int x = 0; x < 2; ++x) {
            const tc::RowCol e = tc::mma_tf32_b_element(lane, x);
            const int n = w_col + 8 * j + e.col;
            const auto* p = bs + n / BK * kPanel + tc::swizzled_offset(kk + e.row, n % BK * 4, kRow, kSwizzle);
            b[j][x] = to_tf32(*reinterpret_cast<const float*>(p));
          }
      } else {
#pragma unroll
        for (int j = 0; j < kFragsN; j += 2) {  // one ldmatrix .trans: the B fragments of two n8 tiles
          const int n = w_col + 8 * j;
          std::uint32_t r[4];
          ldmatrix_x4_trans(r, bs + n / BK * kPanel + tc::swizzled_offset(kk + ld.row, (n % BK / E + ld.chunk) * 16, kRow, kSwizzle));
          b[j][0] = r[0], b[j][1] = r[1], b[j + 1][0] = r[2], b[j + 1][1] = r[3];
        }
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) {
          if constexpr (kTf32)
            mma_m16n8k8_tf32(acc[i][j], a[i], b[j]);
          else
            mma_m16n8k16_bf16(acc[i][j], a[i], b[j]);
        }
    }
    __syncthreads();  // every warp has read the tiles before they are overwritten
  }
  // Each lane stores its own accumulator elements, those inside C.
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j)
#pragma unroll
      for (int x = 0; x < 4; ++x) {
        const tc::RowCol e = tc::mma_c_element(lane, x);
        const int row = row0 + w_row + 16 * i + e.row, col = col0 + w_col + 8 * j + e.col;
        if (row < g.m && col < g.n) g.c[row * g.n + col] = acc[i][j][x];
      }
}
//! [mma_sync]
#endif

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
GemmShape mma_sync_shape() { return {MmaSyncTiles<float>::BM, MmaSyncTiles<float>::BN, MmaSyncTiles<float>::kThreads}; }

namespace {
template <typename In>
void launch(const TensorCoreArgs<In>& g, cudaStream_t stream) {
  using Tiles = MmaSyncTiles<In>;
  const dim3 block(Tiles::kThreads);
  const dim3 grid(blocks_for(g.n, Tiles::BN), blocks_for(g.m, Tiles::BM));
  if (grid.y > kMaxGridY) throw std::length_error("gemm_mma_sync: more block rows than gridDim.y allows");
  if (g.k % Tiles::kChunk == 0 && g.n % Tiles::kChunk == 0)
    gemm_mma_sync<In, true><<<grid, block, 0, stream>>>(g);
  else
    gemm_mma_sync<In, false><<<grid, block, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_mma_sync");
}
}  // namespace

void launch_mma_sync(const TensorCoreArgs<float>& g, cudaStream_t stream) { launch(g, stream); }
void launch_mma_sync(const TensorCoreArgs<Bf16>& g, cudaStream_t stream) { launch(g, stream); }
#endif

}  // namespace gpgpu::blas::cuda
