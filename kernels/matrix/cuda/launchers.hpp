/// @file launchers.hpp
/// @brief One launch function per kernel file of chapter 09, and the grid and block it launches
/// for a rows x cols input (`*_shape`: the file's block and tile sizes sit beside its launch). Each
/// launch checks the launch and is instantiated for float, double and std::int32_t (paper 003
/// measured all three). The host code is chapters/09_matrix_add_transpose/cuda_variants.cpp.
#pragma once
#if GPGPU_HAVE_TMA_TRANSPOSE
#include <cuda.h>  // CUtensorMap
#endif

#include "matrix_args.hpp"

namespace gpgpu::matrix::cuda {

// Add, C = A + B.
// 09_01_add_rowmajor.cu
LaunchShape add_rowmajor_shape(int rows, int cols);
template <typename T> void launch_add_rowmajor(const AddArgs<T>& a, cudaStream_t stream);
// 09_02_add_colmajor.cu
LaunchShape add_colmajor_shape(int rows, int cols);
template <typename T> void launch_add_colmajor(const AddArgs<T>& a, cudaStream_t stream);
// 09_03_add_shared_paper.cu
LaunchShape add_shared_paper_shape(int rows, int cols);
template <typename T> void launch_add_shared_paper(const AddArgs<T>& a, cudaStream_t stream);
// 09_04_add_shared.cu
LaunchShape add_shared_shape(int rows, int cols);
template <typename T> void launch_add_shared(const AddArgs<T>& a, cudaStream_t stream);
// 09_05_add_vec4.cu: one thread per 16-byte vector, at most `max_blocks` blocks (0: the file's own cap,
// a grid of 2^25 threads); the threads stride over whatever the grid does not cover.
LaunchShape add_vec4_shape(int rows, int cols, int element_bytes, unsigned max_blocks = 0);
template <typename T> void launch_add_vec4(const AddArgs<T>& a, cudaStream_t stream, unsigned max_blocks = 0);

// Transpose, out = inᵀ.
// 09_06_transpose_naive.cu
LaunchShape transpose_naive_shape(int rows, int cols);
template <typename T> void launch_transpose_naive(const TransposeArgs<T>& a, cudaStream_t stream);
// 09_07_transpose_tile_as_printed.cu: square matrices only (rows == cols), the printed kernel has one width.
LaunchShape transpose_tile_as_printed_shape(int rows, int cols);
template <typename T> void launch_transpose_tile_as_printed(const TransposeArgs<T>& a, cudaStream_t stream);
// 09_08_transpose_tile.cu
LaunchShape transpose_tile_shape(int rows, int cols);
template <typename T> void launch_transpose_tile(const TransposeArgs<T>& a, cudaStream_t stream);
// 09_09_transpose_tile_padded.cu
LaunchShape transpose_tile_padded_shape(int rows, int cols);
template <typename T> void launch_transpose_tile_padded(const TransposeArgs<T>& a, cudaStream_t stream);
// 09_10_transpose_tile_multi.cu
LaunchShape transpose_tile_multi_shape(int rows, int cols);
template <typename T> void launch_transpose_tile_multi(const TransposeArgs<T>& a, cudaStream_t stream);
// 09_11_transpose_tile_vec4.cu: 64 x 64 tiles, 16 bytes per global access where rows and cols allow.
LaunchShape transpose_tile_vec4_shape(int rows, int cols);
template <typename T> void launch_transpose_tile_vec4(const TransposeArgs<T>& a, cudaStream_t stream);
// 09_12_transpose_tile_panels.cu: 09_11 with the tiles taken down panels of 32 tile columns.
LaunchShape transpose_tile_panels_shape(int rows, int cols);
template <typename T> void launch_transpose_tile_panels(const TransposeArgs<T>& a, cudaStream_t stream);
// 09_copy_tiles.cu (a yardstick, not a step): step 12's grid, tiles and order, each tile written where it was
// read (out = in): the copy with the transposes' access pattern, straight or through the shared tile.
template <typename T> void launch_copy_tiles(const TransposeArgs<T>& a, cudaStream_t stream);
template <typename T> void launch_copy_tiles_staged(const TransposeArgs<T>& a, cudaStream_t stream);
// 09_13_transpose_persistent.cu: 09_12's tiles and order, as many blocks as the current device keeps
// resident (its SMs times the occupancy of the kernel in T), each looping over tiles with the next
// tile's loads in flight during the current tile's stores.
template <typename T> LaunchShape transpose_persistent_shape(int rows, int cols);
// The shape is the caller's, asked for once (the occupancy query stays out of the timed launches).
template <typename T> void launch_transpose_persistent(const TransposeArgs<T>& a, const LaunchShape& shape, cudaStream_t stream);

// 09_14_transpose_tma.cu, built for sm_90a alone (compute capability 9.0 only): declared where CMake
// built it (GPGPU_HAVE_TMA_TRANSPOSE, else GPGPU_WHY_NO_TMA_TRANSPOSE says why). TMA moves 64 x 64
// tiles between global and shared memory, several in flight per block; the threads transpose in
// shared memory. TMA needs rows of whole 16-byte chunks in the input and the output:
// transpose_tma_serves says whether a shape has them (the caller runs another kernel where not).
#if GPGPU_HAVE_TMA_TRANSPOSE
template <typename T> bool transpose_tma_serves(int rows, int cols);
/// The resident grid of blocks (the device's SMs times the occupancy API's blocks per SM, at most one
/// per tile), their shared memory and the input tiles each keeps in flight: asked for once, outside
/// the timed launches.
struct TmaTransposeShape {
  LaunchShape shape;
  int shared_bytes = 0;  ///< per block
  int stages = 0;        ///< input tiles in flight per block
};
template <typename T> TmaTransposeShape transpose_tma_shape(int rows, int cols);
/// One transpose's launch: its shape and the tensor maps of its two buffers.
struct TmaTransposePlan {
  CUtensorMap in, out;
  int rows = 0, cols = 0;
  TmaTransposeShape launch;
};
/// Encodes the maps of a.in and a.out (once per pair of buffers, outside the timed launches).
template <typename T> TmaTransposePlan plan_transpose_tma(const TransposeArgs<T>& a, const TmaTransposeShape& launch);
template <typename T> void launch_transpose_tma(const TmaTransposePlan& plan, cudaStream_t stream);
#endif

}  // namespace gpgpu::matrix::cuda
