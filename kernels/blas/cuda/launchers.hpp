/// @file launchers.hpp
/// @brief One launch function per kernel file of chapter 10: grid and block from the sizes, launch
/// on `stream`, checked; and beside each, the shape of that launch (its tile sizes live in the
/// kernel's file, next to the launch). The generic kernels are instantiated for float and double,
/// the ones that use FP32-only hardware paths (tensor cores) for float. The host code is
/// chapters/10_matrix_multiply/cuda_variants.cpp.
#pragma once
#include <cstddef>
#include <span>

#include "gemm_args.hpp"

namespace gpgpu::blas::cuda {

/// How a kernel's launch covers C: a tile_m x tile_n tile of C per block of `threads` threads.
/// What the host prints as the launch, and how many block rows m needs (gridDim.y: kMaxGridY).
struct GemmShape {
  int tile_m;
  int tile_n;
  unsigned threads;
};

template <typename T> void launch_naive(const GemmArgs<T>& g, cudaStream_t stream);          // 10_01_naive.cu
GemmShape naive_shape();
template <typename T> void launch_tile16(const GemmArgs<T>& g, cudaStream_t stream);         // 10_02_tile16.cu
GemmShape tile16_shape();
template <typename T> void launch_blocktile_1d(const GemmArgs<T>& g, cudaStream_t stream);   // 10_03_blocktile_1d.cu
GemmShape blocktile_1d_shape();
template <typename T> void launch_blocktile_2d(const GemmArgs<T>& g, cudaStream_t stream);   // 10_04_blocktile_2d.cu
GemmShape blocktile_2d_shape();
template <typename T> void launch_vectorized(const GemmArgs<T>& g, cudaStream_t stream);     // 10_05_vectorized.cu
GemmShape vectorized_shape();
template <typename T> void launch_warptile(const GemmArgs<T>& g, cudaStream_t stream);       // 10_06_warptile.cu
GemmShape warptile_shape();
template <typename T> void launch_double_buffer(const GemmArgs<T>& g, cudaStream_t stream);  // 10_07_double_buffer.cu
GemmShape double_buffer_shape();
void launch_tf32_wmma(const GemmArgs<float>& g, cudaStream_t stream);                        // 10_08_tf32_wmma.cu
GemmShape tf32_wmma_shape();

/// One compiled configuration of 10_09_three_stage.cu's template: a block computes a bm x bn tile of
/// C, each thread tm x tn of it, with `stages` tiles of A and B in flight.
struct TileConfig {
  int bm, bn, tm, tn, stages;
};
/// 10_09_three_stage.cu: the configurations compiled for T (the first is the default, --tune times
/// them all), and the launch of configuration `config` (std::out_of_range for one that does not
/// exist) or of the first (launch_three_stage).
template <typename T> std::span<const TileConfig> three_stage_configs();
template <typename T> void launch_three_stage(const GemmArgs<T>& g, cudaStream_t stream);
template <typename T> void launch_three_stage_config(const GemmArgs<T>& g, std::size_t config, cudaStream_t stream);
/// The shape of configuration `config` for T.
template <typename T> GemmShape three_stage_shape(std::size_t config);
/// 10_10_prefetch.cu, configured the same way (TileConfig, stages always 2): its configurations, the
/// launch of one of them or of the first, and their shapes.
template <typename T> std::span<const TileConfig> prefetch_configs();
template <typename T> void launch_prefetch(const GemmArgs<T>& g, cudaStream_t stream);
template <typename T> void launch_prefetch_config(const GemmArgs<T>& g, std::size_t config, cudaStream_t stream);
template <typename T> GemmShape prefetch_shape(std::size_t config);

/// 10_fma_peak.cu on a GPU of `sm_count` SMs: every SM full of blocks of `threads` threads, each
/// thread running `chains` independent chains of fused multiply-adds.
struct FmaShape {
  int blocks;
  int threads;
  int chains;
};
FmaShape fma_peak_shape(int sm_count);
/// That launch, each chain `iterations` FMAs long; writes one value per thread to `out`
/// (blocks x threads of them).
template <typename T> void launch_fma_peak(T* out, const FmaShape& shape, int iterations, T x, cudaStream_t stream);

}  // namespace gpgpu::blas::cuda
