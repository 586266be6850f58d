/// @file launchers.hpp
/// @brief One launch function per kernel file of chapter 10: grid and block from the sizes, launch
/// on `stream`, checked. The generic kernels are instantiated for float and double, the ones that
/// use FP32-only hardware paths (cp.async widths, tensor cores) for float. The host code is
/// chapters/10_matrix_multiply/cuda_gemm.cpp.
#pragma once
#include <cstddef>

#include "gemm_args.hpp"

namespace gpgpu::blas::cuda {

template <typename T> void launch_naive(const GemmArgs<T>& g, cudaStream_t stream);          // 10_naive.cu
template <typename T> void launch_tile16(const GemmArgs<T>& g, cudaStream_t stream);         // 10_tile16.cu
template <typename T> void launch_blocktile_1d(const GemmArgs<T>& g, cudaStream_t stream);   // 10_blocktile_1d.cu
template <typename T> void launch_blocktile_2d(const GemmArgs<T>& g, cudaStream_t stream);   // 10_blocktile_2d.cu
template <typename T> void launch_vectorized(const GemmArgs<T>& g, cudaStream_t stream);     // 10_vectorized.cu
template <typename T> void launch_warptile(const GemmArgs<T>& g, cudaStream_t stream);       // 10_warptile.cu
template <typename T> void launch_double_buffer(const GemmArgs<T>& g, cudaStream_t stream);  // 10_double_buffer.cu
void launch_tf32_wmma(const GemmArgs<float>& g, cudaStream_t stream);                        // 10_tf32_wmma.cu
/// 10_three_stage.cu: configuration `config` of three_stage_configs<T>() (gemm_args.hpp; --tune
/// tries each), or the first (launch_three_stage). Throws std::out_of_range for a configuration
/// that does not exist.
template <typename T> void launch_three_stage(const GemmArgs<T>& g, cudaStream_t stream);
template <typename T> void launch_three_stage_config(const GemmArgs<T>& g, std::size_t config, cudaStream_t stream);

/// 10_fma_peak.cu: `blocks` blocks of kFmaThreads threads, each running kFmaChains independent
/// chains of `iterations` fused multiply-adds; writes one value per thread to `out`.
inline constexpr int kFmaThreads = 256;
inline constexpr int kFmaChains = 8;
template <typename T> void launch_fma_peak(T* out, int blocks, int iterations, T x, cudaStream_t stream);

}  // namespace gpgpu::blas::cuda
