// Chapter 10, step 10: 10_09_three_stage.cu with its fragments prefetched. Nsight Compute on step 9's
// tuned configuration (128 x 256, 2 stages; results/h100/ch10_ncu_step9_tuned_details.txt): 203
// registers, one block of 8 warps per SM, two warps per scheduler, and in 38% of the cycles no warp
// of a scheduler can issue; its largest stall after "not selected" is the short scoreboard (0.55
// cycles per instruction): a thread loads its fragments of slice p from shared memory and uses them
// at once, and with two warps per scheduler nobody else has work ready meanwhile. The changes, each
// small:
// - register double buffering: two sets of fragments, a_frag[2][TM] and b_frag[2][TN]; slice p + 1
//   is loaded from shared memory into one while the TM x TN FMAs of slice p read the other, so the
//   load's latency hides behind a thread's own arithmetic, not behind another warp's;
// - 16-byte loads everywhere: step 9 copied A 4 bytes at a time (cp.async cannot transpose), 8
//   copies per thread per tile. Here A travels as 16-byte global loads into registers at the start
//   of a tile step and is stored transposed into shared memory at its end (four 4-byte stores per
//   load), so the load has a whole step of arithmetic to land in. B keeps its 16-byte cp.async. The
//   transposed A tile is padded by 4 elements per row so that those stores are conflict-free (see
//   kPrefetchPadA), and the fragment reads stay step 9's conflict-free 16-byte loads;
// - two shared buffers and one barrier per tile step (the tuned step 9 used 2 stages too): the
//   barrier that publishes tile step + 1 also says everyone is done with tile step - 1's buffer;
// - grouped rasterisation: consecutive blocks walk down kPrefetchGroupM tile rows before moving one
//   tile column right, so the blocks resident at one time share rows of A and columns of B in L2;
// - no division or modulo in the K loop: every thread's copy offsets are computed before it, the
//   buffer index flips with s ^= 1; and C is written 16 bytes at a time where rows are aligned.
#include "launchers.hpp"

#include <cstddef>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpgpu/cuda/check.hpp"
#include "async_copy.hpp"
#include "grouped_order.hpp"
#include "vector_load.hpp"
#include "warp_tile.hpp"

namespace gpgpu::blas::cuda {
namespace {

/// The launch: blocks of kPrefetchThreads threads (8 warps of 4 x 8 lanes), K in steps of
/// kPrefetchBK, two buffers of A and B: 2 (bm + 4 + bn) kPrefetchBK elements of static shared
/// memory, 24.3 KiB for 128 x 256 in float.
constexpr int kPrefetchThreads = 256, kPrefetchBK = 8;
/// The transposed A tile's rows are bm + kPrefetchPadA long. A thread's 16-byte load of A holds
/// elements (r, c ... c + 3) of the tile, with r = e / 2 and c = e % 2 * 4 for its segment e
/// (float: two segments per row of 8, so a warp reads 16 whole rows: 32-byte sectors in full where
/// k is a multiple of 8), and stores them to as[c + l][r], l = 0 ... 3. Unpadded (rows of bm, a multiple of 32 banks) the
/// lanes with c = 0 and c = 4 and the same r would hit one bank: a 2-way conflict on every store.
/// With rows of bm + 4 the c = 4 lanes are shifted by 16 banks: lanes 0, 2, ..., 30 store to 16
/// neighbouring banks, lanes 1, 3, ..., 31 to the other 16. The padding is 16 bytes, so every row
/// of the tile still starts on a 16-byte boundary and the fragment reads (all lanes of a warp at
/// one row p) are step 9's: 4 distinct 16-byte words for A, 8 for B, broadcast to the others.
constexpr int kPrefetchPadA = 4;
/// Tile rows per group of the grouped rasterisation.
constexpr int kPrefetchGroupM = 8;
/// The configurations compiled per type (TileConfig: bm, bn, tm, tn, stages; stages is always 2
/// here). Float: step 9's tuned shape first (128 x 256, 8 x 16 per thread), its transpose, and
/// 128 x 128 (8 x 8), which makes more blocks for sizes that fill few waves. Double: 128 x 128 with
/// 8 x 8 (128 registers of accumulators already).
template <typename T> struct PrefetchConfigs;
template <> struct PrefetchConfigs<float> {
  static constexpr TileConfig all[] = {{128, 256, 8, 16, 2}, {256, 128, 16, 8, 2}, {128, 128, 8, 8, 2}};
};
template <> struct PrefetchConfigs<double> {
  static constexpr TileConfig all[] = {{128, 128, 8, 8, 2}};
};

}  // namespace

//! [grouped_tile]
/// Grouped rasterisation: the tile (tile_m, tile_n) of C that block (bx, by) of a grid of
/// tiles_n x tiles_m blocks computes. Blocks are numbered row by row (the order the hardware
/// launches them in, roughly), and the numbers are put in grouped order (grouped_order.hpp): groups
/// of GroupM tile rows walked column by column, so the blocks running at the same time read few
/// rows of A and few columns of B. Every tile is computed by exactly one block.
template <int GroupM>
__host__ __device__ __forceinline__ void grouped_tile(int bx, int by, int tiles_n, int tiles_m, int& tile_m, int& tile_n) {
  grouped_position(by * tiles_n + bx, tiles_m, tiles_n, GroupM, tile_m, tile_n);
}
//! [grouped_tile]

namespace {

//! [prefetch]
template <typename T, int BM, int BN, int TM, int TN, bool Aligned>
__global__ void __launch_bounds__(kPrefetchThreads) gemm_prefetch(GemmArgs<T> g) {
  constexpr int kThreads = kPrefetchThreads, BK = kPrefetchBK, L = Vec16<T>::lanes;
  constexpr int WM = 4 * TM, WN = 8 * TN;  // the warp tile: 4 x 8 lanes of TM x TN
  constexpr int kASegs = BM * BK / L / kThreads, kBSegs = BK * BN / L / kThreads;  // 16-byte segments per thread
  constexpr int kARowStride = kThreads / (BK / L), kBRowStride = kThreads / (BN / L);  // rows between a thread's segments
  static_assert(BM / WM * (BN / WN) * 32 == kThreads && TM % 4 == 0 && TN % 4 == 0, "8 warps of 4 x 8 lanes");
  static_assert(kASegs >= 1 && kBSegs >= 1 && kThreads % (BN / L) == 0 && BK % 2 == 0, "whole segments per thread");
  __shared__ __align__(16) T as[2][BK][BM + kPrefetchPadA];  // transposed: as[s][p][r] is A(row0 + r, p0 + p)
  __shared__ __align__(16) T bs[2][BK][BN];
  int tile_m, tile_n;
  grouped_tile<kPrefetchGroupM>(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y, tile_m, tile_n);
  const int row0 = tile_m * BM, col0 = tile_n * BN;
  const int t = threadIdx.x;
  const int warp = t / 32, lane = t % 32;
  const int w_row = warp / (BN / WN) * WM, w_col = warp % (BN / WN) * WN;  // the warp's tile
  const int c_row = w_row + lane / 8 * 4, c_col = w_col + lane % 8 * 4;  // + 16 i / 4 and + 32 j / 4
  // Each thread's segments, computed once: A rows a_r + j kARowStride at column a_c of the tile,
  // B rows b_r + j kBRowStride at column b_c.
  const int a_r = t / (BK / L), a_c = t % (BK / L) * L;
  const int b_r = t / (BN / L), b_c = t % (BN / L) * L, b_col = col0 + b_c;
  T a_next[kASegs][L];  // the next A tile on its way: global memory -> here -> shared memory
  const auto load_a = [&](int p0) {  // zeros outside A (vector_load.hpp)
#pragma unroll
    for (int j = 0; j < kASegs; ++j) {
      const int row = row0 + a_r + j * kARowStride;
      load_segment<T, Aligned>(g.a + (row < g.m ? row * g.k : 0), p0 + a_c, row < g.m ? g.k - (p0 + a_c) : 0, a_next[j]);
    }
  };
  const auto store_a = [&](int s) {  // transposed, conflict-free (kPrefetchPadA)
#pragma unroll
    for (int j = 0; j < kASegs; ++j)
#pragma unroll
      for (int l = 0; l < L; ++l) as[s][a_c + l][a_r + j * kARowStride] = a_next[j][l];
  };
  const auto copy_b = [&](int s, int p0) {  // cp.async, zeros outside B (async_copy.hpp)
#pragma unroll
    for (int j = 0; j < kBSegs; ++j) {
      const int r = b_r + j * kBRowStride, row = p0 + r;
      if (Aligned) {
        const bool inside = row < g.k && b_col < g.n;
        copy_async<16>(&bs[s][r][b_c], inside ? g.b + row * g.n + b_col : g.b, inside);
      } else {
#pragma unroll
        for (int l = 0; l < L; ++l) {
          const bool inside = row < g.k && b_col + l < g.n;
          copy_async<sizeof(T)>(&bs[s][r][b_c + l], inside ? g.b + row * g.n + b_col + l : g.b, inside);
        }
      }
    }
  };
  T acc[TM][TN] = {};
  T a_frag[2][TM], b_frag[2][TN];  // slice p in one, slice p + 1 arriving in the other
  const auto load_fragments = [&](int s, int p, T(&a)[TM], T(&b)[TN]) {
#pragma unroll
    for (int i = 0; i < TM; i += L) load16(&as[s][p][c_row + row_of(i)], &a[i]);
#pragma unroll
    for (int j = 0; j < TN; j += L) load16(&bs[s][p][c_col + col_of(j)], &b[j]);
  };
  //! [prefetch_loop]
  const int steps = (g.k + BK - 1) / BK;
  load_a(0);
  copy_b(0, 0);
  copy_async_commit();
  store_a(0);
  copy_async_wait<0>();
  __syncthreads();
  load_fragments(0, 0, a_frag[0], b_frag[0]);
  int s = 0;  // the buffer of tile `step`
  for (int step = 0; step < steps; ++step) {
    const bool more = step + 1 < steps;  // the same for every thread of the block
    if (more) {  // tile step + 1: A into registers, B into the other buffer (last read before the previous barrier)
      load_a((step + 1) * BK);
      copy_b(s ^ 1, (step + 1) * BK);
    }
    copy_async_commit();
#pragma unroll
    for (int p = 0; p < BK; ++p) {
      if (p + 1 < BK) {
        load_fragments(s, p + 1, a_frag[(p + 1) % 2], b_frag[(p + 1) % 2]);  // slice p + 1 while slice p computes
      } else if (more) {
        store_a(s ^ 1);
        copy_async_wait<0>();  // this thread's copies of B's tile step + 1 have landed
        __syncthreads();       // everyone's have, A's too, and everyone is done with buffer s
        load_fragments(s ^ 1, 0, a_frag[0], b_frag[0]);  // slice 0 of tile step + 1
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[p % 2][i] * b_frag[p % 2][j];
    }
    s ^= 1;
  }
  //! [prefetch_loop]
  // C: 16 bytes at a time where rows are aligned (n a multiple of the lanes, so a segment of the
  // tile that starts inside C is inside as a whole), element by element otherwise.
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + c_row + row_of(i);
#pragma unroll
    for (int j = 0; j < TN; j += L) {
      const int col = col0 + c_col + col_of(j);
      if (row >= g.m) continue;
      if (Aligned && col < g.n) {
        typename Vec16<T>::type v;
        T* lanes = reinterpret_cast<T*>(&v);
#pragma unroll
        for (int l = 0; l < L; ++l) lanes[l] = acc[i][j + l];
        *reinterpret_cast<typename Vec16<T>::type*>(g.c + row * g.n + col) = v;
      } else if (!Aligned) {
#pragma unroll
        for (int l = 0; l < L; ++l)
          if (col + l < g.n) g.c[row * g.n + col + l] = acc[i][j + l];
      }
    }
  }
}
//! [prefetch]

}  // namespace

/// The kernel of configuration I of PrefetchConfigs<T> (above).
template <typename T, std::size_t I, bool Aligned>
constexpr auto prefetch_kernel() {
  constexpr TileConfig c = PrefetchConfigs<T>::all[I];
  return gemm_prefetch<T, c.bm, c.bn, c.tm, c.tn, Aligned>;
}

/// Calls `f(std::integral_constant<std::size_t, I>{})` for I = `config`, the compile-time index of
/// a configuration chosen at run time (the launcher's and the CPU emulation's dispatch).
template <typename T, typename F>
void with_prefetch_config(std::size_t config, F&& f) {
  constexpr std::size_t kCount = std::size(PrefetchConfigs<T>::all);
  if (config >= kCount) throw std::out_of_range("gemm_prefetch: no configuration " + std::to_string(config));
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((config == I ? (f(std::integral_constant<std::size_t, I>{}), 0) : 0), ...);
  }(std::make_index_sequence<kCount>{});
}

template <typename T>
std::span<const TileConfig> prefetch_configs() {
  return PrefetchConfigs<T>::all;
}

#ifndef GPGPU_CUDA_EMULATION
template <typename T>
GemmShape prefetch_shape(std::size_t config) {
  const std::span<const TileConfig> configs = prefetch_configs<T>();
  if (config >= configs.size()) throw std::out_of_range("gemm_prefetch: no configuration " + std::to_string(config));
  return {configs[config].bm, configs[config].bn, kPrefetchThreads};
}

template <typename T>
void launch_prefetch_config(const GemmArgs<T>& g, std::size_t config, cudaStream_t stream) {
  with_prefetch_config<T>(config, [&](auto index) {
    constexpr TileConfig c = PrefetchConfigs<T>::all[decltype(index)::value];
    const dim3 grid(blocks_for(g.n, c.bn), blocks_for(g.m, c.bm));  // grouped_tile reorders the blocks
    if (grid.y > kMaxGridY) throw std::length_error("gemm_prefetch: more block rows than gridDim.y allows");
    // 16-byte loads and stores need every row to start on a 16-byte boundary (cudaMalloc aligns the first).
    const auto kernel = g.k % Vec16<T>::lanes == 0 && g.n % Vec16<T>::lanes == 0
                            ? prefetch_kernel<T, decltype(index)::value, true>()
                            : prefetch_kernel<T, decltype(index)::value, false>();
    kernel<<<grid, kPrefetchThreads, 0, stream>>>(g);
    GPGPU_CUDA_CHECK_LAUNCH("gemm_prefetch");
  });
}
template <typename T>
void launch_prefetch(const GemmArgs<T>& g, cudaStream_t stream) {
  launch_prefetch_config(g, 0, stream);
}
template std::span<const TileConfig> prefetch_configs<float>();
template std::span<const TileConfig> prefetch_configs<double>();
template GemmShape prefetch_shape<float>(std::size_t);
template GemmShape prefetch_shape<double>(std::size_t);
template void launch_prefetch_config<float>(const GemmArgs<float>&, std::size_t, cudaStream_t);
template void launch_prefetch_config<double>(const GemmArgs<double>&, std::size_t, cudaStream_t);
template void launch_prefetch<float>(const GemmArgs<float>&, cudaStream_t);
template void launch_prefetch<double>(const GemmArgs<double>&, cudaStream_t);
#endif

}  // namespace gpgpu::blas::cuda
