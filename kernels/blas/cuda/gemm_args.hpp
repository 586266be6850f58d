/// @file gemm_args.hpp
/// @brief What the GEMM kernels of chapter 10 receive, and the tile sizes they are written for.
/// Every matrix is dense and row-major: A is m x k, B is k x n, C = A·B is m x n. The option group
/// keeps every matrix below matrix::kMaxElements elements, so every in-range index fits an int;
/// kernels compute an index only for an element inside its matrix.
#pragma once
#include <cuda_runtime_api.h>

#include <span>

namespace gpgpu::blas::cuda {

template <typename T>
struct GemmArgs {
  const T* a;
  const T* b;
  T* c;
  int m;
  int n;
  int k;
};

/// gridDim.y is at most 65535 on every GPU: the kernels put the tile rows of C on it.
inline constexpr long long kMaxGridY = 65535;

// Tile sizes, one place for kernels, launchers and the host code's limitations.
/// 10_naive.cu: blocks of 16 x 16 threads, one element of C each (the paper's launch).
inline constexpr int kNaiveBlock = 16;
/// 10_tile16.cu: the paper's BLOCK_SIZE (Obr. 10).
inline constexpr int kPaperTile = 16;
/// 10_blocktile_1d.cu: a 64 x 64 tile of C per block, K in steps of 8, 8 elements per thread (512 threads).
inline constexpr int k1dBM = 64, k1dBN = 64, k1dBK = 8, k1dTM = 8;
/// 10_blocktile_2d.cu and later: a 128 x 128 tile of C per block, K in steps of 8, 8 x 8 per thread (256 threads).
inline constexpr int k2dBM = 128, k2dBN = 128, k2dBK = 8, k2dTM = 8, k2dTN = 8;
/// 10_tf32_wmma.cu: a 128 x 128 tile per block of 8 warps, K in steps of 16.
inline constexpr int kWmmaBM = 128, kWmmaBN = 128, kWmmaBK = 16;

/// 10_three_stage.cu: one compiled configuration of its template. A block of kThreeStageThreads
/// threads (8 warps of 4 x 8 lanes) computes a bm x bn tile of C, each thread tm x tn of it (so a
/// warp 4 tm x 8 tn), K in steps of kThreeStageBK with `stages` tiles of A and B in flight. Static
/// shared memory (stages (bm + bn) kThreeStageBK elements) stays within the 48 KB a block may have
/// without opting in.
struct TileConfig {
  int bm, bn, tm, tn, stages;
};
inline constexpr int kThreeStageThreads = 256, kThreeStageBK = 8;
/// The configurations compiled per type; the first is the default, --tune times them all. Float:
/// cuBLAS's shape (256 x 128, 16 x 8 per thread, 3 stages), its transpose, each with 2 stages, and
/// step 7's 128 x 128 with 3 and 4 stages. Double: 128 registers of accumulators for 8 x 8 already,
/// so only step 7's shape (48 KB of shared memory at 3 stages).
template <typename T> struct ThreeStageConfigs;
template <> struct ThreeStageConfigs<float> {
  static constexpr TileConfig all[] = {{256, 128, 16, 8, 3}, {128, 256, 8, 16, 3}, {256, 128, 16, 8, 2},
                                       {128, 256, 8, 16, 2}, {128, 128, 8, 8, 3},  {128, 128, 8, 8, 4}};
};
template <> struct ThreeStageConfigs<double> {
  static constexpr TileConfig all[] = {{128, 128, 8, 8, 3}};
};
template <typename T>
constexpr std::span<const TileConfig> three_stage_configs() {
  return ThreeStageConfigs<T>::all;
}

/// Blocks of `per_block` that cover `count`.
constexpr unsigned blocks_for(long long count, long long per_block) {
  return static_cast<unsigned>((count + per_block - 1) / per_block);
}

}  // namespace gpgpu::blas::cuda
