/// @file tma_tile.hpp
/// @brief Where step 14 (09_14_transpose_tma.cu) keeps a tile in shared memory, and which elements a
/// thread moves from the input tile to the output tile: constexpr functions that the kernel and the
/// CPU test (tests/test_tma_tile_layout.cpp) share, so that the test checks the kernel's own
/// arithmetic (every element moved once, no bank conflicts). Then the TMA store side in inline PTX
/// (the load side and the mbarrier are chapter 10b's, blas/cuda/tma.hpp).
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

#include <cuda.h>  // CUtensorMap
#include <cuda_runtime_api.h>

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

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

/// The box of shared `src` (laid out for the map's swizzle) into the tensor of `map` at (inner,
/// outer) = (column, row); elements outside the tensor are not written. Completes in this thread's
/// current bulk async-group (cp.async.bulk.commit_group closes it).
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, int inner, int outer, std::uint32_t src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
                   reinterpret_cast<std::uint64_t>(map)),
               "r"(inner), "r"(outer), "r"(src)
               : "memory");
}
__device__ __forceinline__ void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
/// Waits until at most N of this thread's bulk groups are still reading their shared memory.
template <int N>
__device__ __forceinline__ void bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}
/// Waits until at most N of this thread's bulk groups are incomplete (their writes done).
template <int N>
__device__ __forceinline__ void bulk_wait_group() {
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory");
}
/// Makes this thread's shared-memory writes visible to the async proxy (a TMA store that reads them
/// after the barrier that follows).
__device__ __forceinline__ void fence_proxy_async_shared_cta() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

#else  // declarations for the other passes (the one file that includes this is built for sm_90a alone)
__device__ void tma_store_2d(const CUtensorMap* map, int inner, int outer, std::uint32_t src);
__device__ void bulk_commit_group();
template <int N>
__device__ void bulk_wait_group_read();
template <int N>
__device__ void bulk_wait_group();
__device__ void fence_proxy_async_shared_cta();
#endif

}  // namespace gpgpu::matrix::cuda
