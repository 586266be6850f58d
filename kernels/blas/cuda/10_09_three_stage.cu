// Chapter 10, step 9: 10_07_double_buffer.cu with a larger thread tile and a third stage. Nsight
// Compute found step 7's SM idle for much of the time, its warps issuing rarely, and cuBLAS's
// kernel computing 128 elements of C per thread against our 64. Three changes, each small:
// - the thread tile becomes a template parameter: 16 x 8 (four blocks of 4 x 4 down, two across)
//   in a 256 x 128 block tile by default (cuBLAS's block is 128 x 256 of our row-major C; --tune tries
//   both). Per step p a thread loads 16 + 8 values from shared memory (four
//   and two 16-byte loads, conflict-free as in step 6) for 128 FMAs: 5.3 FMAs per value, not 4;
// - `Stages` buffers, the copies of tile step + Stages - 1 issued while tile step is computed, so
//   a copy has Stages - 1 steps of arithmetic to land in, not one; cp.async.wait_group
//   Stages - 2 waits for the oldest only. One barrier per step suffices: the one that publishes
//   tile step also says that every thread is done with tile step - 1, whose buffer the next
//   copies overwrite;
// - the copies into the transposed A tile go to 32 neighbouring rows per warp (step 7: 16 rows,
//   two copies per bank), and the inner loop's shared loads are explicit 16-byte loads.
// The grid and the edge handling are step 7's; the configurations compiled (tile shapes, thread
// tiles, 2 to 4 stages) are listed below, beside the launch, and --tune times each.
#include "launchers.hpp"

#include <cstddef>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpgpu/cuda/check.hpp"
#include "async_copy.hpp"
#include "vector_load.hpp"
#include "warp_tile.hpp"

namespace gpgpu::blas::cuda {
namespace {

/// The launch: blocks of kThreeStageThreads threads (8 warps of 4 x 8 lanes), K in steps of
/// kThreeStageBK. Static shared memory (stages (bm + bn) kThreeStageBK elements) stays within the
/// 48 KB a block may have without opting in.
constexpr int kThreeStageThreads = 256, kThreeStageBK = 8;
/// The configurations compiled per type (TileConfig: bm, bn, tm, tn, stages). Float: cuBLAS's
/// shape (256 x 128, 16 x 8 per thread, 3 stages), its transpose, each with 2 stages, and step 7's
/// 128 x 128 with 3 and 4 stages. Double: 128 registers of accumulators for 8 x 8 already, so only
/// step 7's shape (48 KB of shared memory at 3 stages).
template <typename T> struct ThreeStageConfigs;
template <> struct ThreeStageConfigs<float> {
  static constexpr TileConfig all[] = {{256, 128, 16, 8, 3}, {128, 256, 8, 16, 3}, {256, 128, 16, 8, 2},
                                       {128, 256, 8, 16, 2}, {128, 128, 8, 8, 3},  {128, 128, 8, 8, 4}};
};
template <> struct ThreeStageConfigs<double> {
  static constexpr TileConfig all[] = {{128, 128, 8, 8, 3}};
};

//! [three_stage]
template <typename T, int BM, int BN, int TM, int TN, int Stages, bool Aligned>
__global__ void __launch_bounds__(kThreeStageThreads) gemm_three_stage(GemmArgs<T> g) {
  constexpr int kThreads = kThreeStageThreads, BK = kThreeStageBK, L = Vec16<T>::lanes;
  constexpr int WM = 4 * TM, WN = 8 * TN;  // the warp tile: 4 x 8 lanes of TM x TN
  __shared__ __align__(16) T as[Stages][BK][BM];  // Stages buffers; transposed: as[s][p][r] is A(row0 + r, p0 + p)
  __shared__ __align__(16) T bs[Stages][BK][BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  static_assert(BM / WM * (BN / WN) * 32 == kThreads && TM % 4 == 0 && TN % 4 == 0 && Stages >= 2, "8 warps of 4 x 8 lanes");
  const int warp = t / 32, lane = t % 32;
  const int w_row = warp / (BN / WN) * WM, w_col = warp % (BN / WN) * WN;  // the warp's tile
  const int c_row = w_row + lane / 8 * 4, c_col = w_col + lane % 8 * 4;  // + 16 i / 4 and + 32 j / 4 (below)
  T acc[TM][TN] = {};
  T a_reg[TM], b_reg[TN];
  const auto load_tiles = [&](int s, int p0) {  // into buffer s, zeros outside the matrices (step 7)
    for (int e = t; e < BM * BK; e += kThreads) {
      const int r = e % BM, p = e / BM;  // a warp copies one column of 32 rows: 32 banks
      const int row = row0 + r;
      const bool inside = row < g.m && p0 + p < g.k;
      copy_async<sizeof(T)>(&as[s][p][r], inside ? g.a + row * g.k + p0 + p : g.a, inside);
    }
    copy_tile_async<kThreads, Aligned>(bs[s], g.b, g.k, g.n, p0, col0, t);  // 16 bytes at a time where aligned
  };
  //! [three_stage_pipeline]
  const int steps = (g.k + BK - 1) / BK;
#pragma unroll
  for (int s = 0; s < Stages - 1; ++s) {  // the first Stages - 1 tiles in flight
    if (s < steps) load_tiles(s, s * BK);
    copy_async_commit();  // one group per tile, empty past the last, so that wait_group counts tiles
  }
  for (int step = 0; step < steps; ++step) {
    copy_async_wait<Stages - 2>();  // this thread's copies of tile `step` have landed
    __syncthreads();                // everyone's have, and everyone is done with tile step - 1
    const int next = step + Stages - 1;
    if (next < steps) load_tiles(next % Stages, next * BK);  // into the buffer of tile step - 1
    copy_async_commit();
    const int s = step % Stages;
#pragma unroll
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; i += L) load16(&as[s][p][c_row + row_of(i)], &a_reg[i]);
#pragma unroll
      for (int j = 0; j < TN; j += L) load16(&bs[s][p][c_col + col_of(j)], &b_reg[j]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
  }
  //! [three_stage_pipeline]
  store_thread_tile(g, acc, row0 + c_row, col0 + c_col);
}
//! [three_stage]

}  // namespace

/// The kernel of configuration I of ThreeStageConfigs<T> (above).
template <typename T, std::size_t I, bool Aligned>
constexpr auto three_stage_kernel() {
  constexpr TileConfig c = ThreeStageConfigs<T>::all[I];
  return gemm_three_stage<T, c.bm, c.bn, c.tm, c.tn, c.stages, Aligned>;
}

/// Calls `f(std::integral_constant<std::size_t, I>{})` for I = `config`, the compile-time index of
/// a configuration chosen at run time (the launcher's and the CPU emulation's dispatch).
template <typename T, typename F>
void with_three_stage_config(std::size_t config, F&& f) {
  constexpr std::size_t kCount = std::size(ThreeStageConfigs<T>::all);
  if (config >= kCount) throw std::out_of_range("gemm_three_stage: no configuration " + std::to_string(config));
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((config == I ? (f(std::integral_constant<std::size_t, I>{}), 0) : 0), ...);
  }(std::make_index_sequence<kCount>{});
}

template <typename T>
std::span<const TileConfig> three_stage_configs() {
  return ThreeStageConfigs<T>::all;
}

#ifndef GPGPU_CUDA_EMULATION
template <typename T>
GemmShape three_stage_shape(std::size_t config) {
  const std::span<const TileConfig> configs = three_stage_configs<T>();
  if (config >= configs.size()) throw std::out_of_range("gemm_three_stage: no configuration " + std::to_string(config));
  return {configs[config].bm, configs[config].bn, kThreeStageThreads};
}

template <typename T>
void launch_three_stage_config(const GemmArgs<T>& g, std::size_t config, cudaStream_t stream) {
  with_three_stage_config<T>(config, [&](auto index) {
    constexpr TileConfig c = ThreeStageConfigs<T>::all[decltype(index)::value];
    const dim3 grid(blocks_for(g.n, c.bn), blocks_for(g.m, c.bm));
    if (grid.y > kMaxGridY) throw std::length_error("gemm_three_stage: more block rows than gridDim.y allows");
    // 16-byte loads need every row to start on a 16-byte boundary (cudaMalloc aligns the first).
    const auto kernel = g.k % Vec16<T>::lanes == 0 && g.n % Vec16<T>::lanes == 0
                            ? three_stage_kernel<T, decltype(index)::value, true>()
                            : three_stage_kernel<T, decltype(index)::value, false>();
    kernel<<<grid, kThreeStageThreads, 0, stream>>>(g);
    GPGPU_CUDA_CHECK_LAUNCH("gemm_three_stage");
  });
}
template <typename T>
void launch_three_stage(const GemmArgs<T>& g, cudaStream_t stream) {
  launch_three_stage_config(g, 0, stream);
}
template std::span<const TileConfig> three_stage_configs<float>();
template std::span<const TileConfig> three_stage_configs<double>();
template GemmShape three_stage_shape<float>(std::size_t);
template GemmShape three_stage_shape<double>(std::size_t);
template void launch_three_stage_config<float>(const GemmArgs<float>&, std::size_t, cudaStream_t);
template void launch_three_stage_config<double>(const GemmArgs<double>&, std::size_t, cudaStream_t);
template void launch_three_stage<float>(const GemmArgs<float>&, cudaStream_t);
template void launch_three_stage<double>(const GemmArgs<double>&, cudaStream_t);
#endif

}  // namespace gpgpu::blas::cuda
