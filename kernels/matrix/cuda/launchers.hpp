/// @file launchers.hpp
/// @brief One launch function per kernel file of chapter 09: grid and block from the sizes, launch
/// on `stream`, checked. Each is instantiated for float, double and std::int32_t (paper 003
/// measured all three). The host code is chapters/09_matrix_add_transpose/cuda_matrix.cpp.
#pragma once
#include "matrix_args.hpp"

namespace gpgpu::matrix::cuda {

// Add, C = A + B.
template <typename T> void launch_add_rowmajor(const AddArgs<T>& a, cudaStream_t stream);      // 09_add_rowmajor.cu
template <typename T> void launch_add_colmajor(const AddArgs<T>& a, cudaStream_t stream);      // 09_add_colmajor.cu
template <typename T> void launch_add_shared_paper(const AddArgs<T>& a, cudaStream_t stream);  // 09_add_shared_paper.cu
template <typename T> void launch_add_shared(const AddArgs<T>& a, cudaStream_t stream);        // 09_add_shared.cu
/// One thread per 16-byte vector, at most `max_blocks` blocks (kVecMaxBlocks on the GPU; the tests pass
/// fewer so that every thread strides); the threads stride over whatever the grid does not cover.
template <typename T> void launch_add_vec4(const AddArgs<T>& a, unsigned max_blocks, cudaStream_t stream);  // 09_add_vec4.cu

// Transpose, out = inᵀ.
template <typename T> void launch_transpose_naive(const TransposeArgs<T>& a, cudaStream_t stream);  // 09_transpose_naive.cu
/// Square matrices only (rows == cols): the printed kernel has one width.
template <typename T> void launch_transpose_tile_as_printed(const TransposeArgs<T>& a, cudaStream_t stream);  // 09_transpose_tile_as_printed.cu
template <typename T> void launch_transpose_tile(const TransposeArgs<T>& a, cudaStream_t stream);         // 09_transpose_tile.cu
template <typename T> void launch_transpose_tile_padded(const TransposeArgs<T>& a, cudaStream_t stream);  // 09_transpose_tile_padded.cu
template <typename T> void launch_transpose_tile_multi(const TransposeArgs<T>& a, cudaStream_t stream);   // 09_transpose_tile_multi.cu

}  // namespace gpgpu::matrix::cuda
