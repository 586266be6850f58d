/// @file swizzled_staging.hpp
/// @brief How chapter 10b's kernels fill their shared tiles from global memory before TMA does it
/// (steps 2 and 3): one 16-byte chunk of a row at a time, by cp.async where the chunk is inside or
/// outside the matrix as a whole, else element by element, zeros past the edges. The caller gives
/// the chunk's place in the swizzled tile (tensor_core_layout.hpp).
#pragma once
#include "async_copy.hpp"
#include "tensor_core_layout.hpp"

namespace gpgpu::blas::cuda {

/// Elements of In in one 16-byte chunk: 4 floats (TF32) or 8 bfloat16.
template <typename In>
inline constexpr int kChunkElements = 16 / static_cast<int>(sizeof(In));

/// The 16-byte chunk of elements (row, col .. col + kChunkElements - 1) of a row-major rows x cols
/// matrix into shared `dst`, zeros outside the matrix. Aligned (cols a multiple of the chunk, so a
/// chunk is inside or outside as a whole): one 16-byte cp.async, which the caller commits and waits
/// for; otherwise element by element, synchronously.
//! [load_chunk]
template <typename In, bool Aligned>
__device__ __forceinline__ void load_chunk(unsigned char* dst, const In* src, int rows, int cols, int row, int col) {
  constexpr int E = kChunkElements<In>;
  if (Aligned) {
    const bool inside = row < rows && col < cols;
    copy_async<16>(dst, inside ? src + row * cols + col : src, inside);
  } else {
    In* d = reinterpret_cast<In*>(dst);
#pragma unroll
    for (int l = 0; l < E; ++l) d[l] = row < rows && col + l < cols ? src[row * cols + col + l] : In(0.0f);
  }
}
//! [load_chunk]

/// Rows row0 .. row0 + Rows - 1 of a row-major rows x cols matrix, 128 bytes of each from column
/// col0 on, into `tile`: Rows rows of 128 bytes with the 128-byte swizzle (a K-major operand tile:
/// A of both steps). The block's Threads threads share the 8 chunks of every row, neighbouring
/// threads on neighbouring chunks. Issues cp.async on the aligned path; the caller commits and waits.
template <typename In, bool Aligned, int Rows, int Threads>
__device__ __forceinline__ void stage_rows_128b(unsigned char* tile, const In* src, int rows, int cols, int row0, int col0) {
  for (int e = static_cast<int>(threadIdx.x); e < Rows * 8; e += Threads) {
    const int r = e / 8, c = e % 8;
    load_chunk<In, Aligned>(tile + tc::swizzled_offset(r, c * 16, 128, tc::Swizzle::b128), src, rows, cols, row0 + r,
                            col0 + c * kChunkElements<In>);
  }
}

}  // namespace gpgpu::blas::cuda
