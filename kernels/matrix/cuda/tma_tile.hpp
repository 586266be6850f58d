/// @file tma_tile.hpp
/// @brief Where step 14 (09_14_transpose_tma.cu) keeps a tile in shared memory, and which elements a
/// thread moves from the input tile to the output tile: constexpr functions that the kernel and the
/// CPU test (tests/test_tma_tile_layout.cpp) share, so that the test checks the kernel's own
/// arithmetic (every element moved once, no bank conflicts). The PTX the kernel runs is chapter 10b's:
/// the loads and the mbarrier in blas/cuda/tma.hpp, the stores and their bulk groups in
/// blas/cuda/tma_store.hpp, the proxy fence in blas/cuda/wgmma.hpp.
///
/// The layout. TMA writes a box into shared memory row after row, densely; a 64-float row is 256
/// bytes, so a column of the tile would lie in one bank (09_08's 32-way conflict), and TMA cannot
/// pad. It can swizzle: with CU_TENSOR_MAP_SWIZZLE_128B the 16-byte chunk j of row r of a box lands
/// at chunk j ^ (r % 8), for boxes whose rows are at most 128 bytes. So a tile of kTmaTile x kTmaTile
/// elements is kept as kTmaTile / span<T> boxes side by side, each kTmaTile rows of 128 bytes (span<T>
/// = 128 / sizeof(T) elements): element (r, c) is in box c / span, row r, and its chunk is swizzled
/// (chapter 10b's tc::swizzled_offset, the same pattern its wgmma steps read). The output tile has
/// the same layout, so one map shape serves the load and the store.
#pragma once
#include <cstdint>

#include <cuda_runtime_api.h>  // __host__ __device__

#include "blas/cuda/tensor_core_layout.hpp"

namespace gpgpu::matrix::cuda {

inline constexpr int kTmaTile = 64;       // elements per tile side
inline constexpr int kTmaWarps = 4;       // a block of 128 threads
inline constexpr int kTmaThreads = 32 * kTmaWarps;
inline constexpr int kTmaOutBuffers = 2;  // output tiles a block fills while TMA stores the other

template <typename T>
inline constexpr int kTmaSpan = 128 / static_cast<int>(sizeof(T));  // elements per 128-byte box row
template <typename T>
inline constexpr int kTmaChunk = 16 / static_cast<int>(sizeof(T));  // elements per 16-byte chunk
inline constexpr int kTmaTileElements = kTmaTile * kTmaTile;
template <typename T>
inline constexpr int kTmaBoxes = kTmaTile / kTmaSpan<T>;  // boxes across a tile
// Input tiles a block keeps in flight: 64 KiB of them (four float tiles, two double tiles).
template <typename T>
inline constexpr int kTmaStages = 65536 / (kTmaTileElements * static_cast<int>(sizeof(T)));

/// Where element (r, c) of a tile lies, in elements from the tile's start.
template <typename T>
constexpr __host__ __device__ int tma_tile_index(int r, int c) {
  constexpr int span = kTmaSpan<T>;
  const int box = c / span, byte = (c % span) * static_cast<int>(sizeof(T));
  const unsigned stored = blas::cuda::tc::swizzled_offset(static_cast<unsigned>(r), static_cast<unsigned>(byte), 128,
                                                          blas::cuda::tc::Swizzle::b128);
  return box * kTmaTile * span + static_cast<int>(stored) / static_cast<int>(sizeof(T));
}

/// The thread's share of moving a tile: kTmaTasks<T> tasks per tile, each a 16-byte chunk of the
/// output tile, dealt to the warps in turn. Task t of lane `lane` gathers output row c = 32 (t %
/// (kTmaTile / 32)) + lane, columns r0 .. r0 + chunk - 1 with r0 = chunk (t / (kTmaTile / 32)): input
/// elements (r0 + k, c), k < chunk, which the warp reads one k at a time along one input row (32
/// consecutive columns of one swizzled row: 32 banks), and writes them as one 16-byte chunk (eight
/// consecutive output rows per quarter warp, their chunk index XORed with eight different row
/// numbers: 32 banks).
template <typename T>
inline constexpr int kTmaTasks = (kTmaTile / 32) * (kTmaTile / kTmaChunk<T>);
template <typename T>
inline constexpr int kTmaTasksPerWarp = kTmaTasks<T> / kTmaWarps;

struct TmaTask {
  int out_row, out_col;  // the chunk's first element in the output tile: input element (out_col, out_row)
};
template <typename T>
constexpr __host__ __device__ TmaTask tma_task(int warp, int lane, int j) {
  const int t = warp + kTmaWarps * j;  // the warp's j-th task
  return {32 * (t % (kTmaTile / 32)) + lane, kTmaChunk<T> * (t / (kTmaTile / 32))};
}

}  // namespace gpgpu::matrix::cuda
