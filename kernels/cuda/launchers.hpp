/// @file launchers.hpp
/// @brief One launch function per numbered kernel file: grid and block from the sizes, launch,
/// check. Internal to kernels/cuda (CUDA types); the solvers in solver_*.cpp call these.
#pragma once
#include "jacobi_args.hpp"

namespace gpgpu::cuda_jacobi {

void launch_jacobi_simple(const LinearArgs& a, int block, cudaStream_t stream);            // 01
void launch_jacobi_aligned(const LinearArgs& a, int block, cudaStream_t stream);           // 02
void launch_jacobi_pitched(const PitchedArgs& a, int block, cudaStream_t stream);          // 03
void launch_jacobi_shared(const PitchedArgs& a, int block, cudaStream_t stream);           // 04
void launch_jacobi_texture(const TextureArgs& a, int block, cudaStream_t stream);          // 05
void launch_jacobi_readonly(const PitchedArgs& a, int block, cudaStream_t stream);         // 06
void launch_jacobi_tiled2d(const PitchedArgs& a, int block_x, int block_y, cudaStream_t stream);  // 07
void launch_jacobi_multirow(const PitchedArgs& a, int block, int rows_per_thread, cudaStream_t stream);     // 08
void launch_jacobi_symmetric(const SymmetricArgs& a, int block, int rows_per_thread, cudaStream_t stream);  // 09

/// Resident blocks per SM of kernels 08 and 09 for a block size (sets the default rows per thread).
int multirow_blocks_per_sm(int block);
int symmetric_blocks_per_sm(int block);

}  // namespace gpgpu::cuda_jacobi

namespace gpgpu::cuda_jacobi {

/// Blocks of `block` threads that cover `count` items (64-bit arithmetic: count may be near 2^31).
inline unsigned blocks_for(long long count, int block) { return static_cast<unsigned>((count + block - 1) / block); }

/// gridDim.y for `rows` rows: one block row per grid row, at most kMaxGridY (kernels loop beyond).
inline unsigned grid_rows(long long rows) { return static_cast<unsigned>(rows < kMaxGridY ? rows : kMaxGridY); }

}  // namespace gpgpu::cuda_jacobi
