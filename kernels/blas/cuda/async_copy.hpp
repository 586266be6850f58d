/// @file async_copy.hpp
/// @brief cp.async (compute capability 8.0 and later): a copy from global to shared memory that the
/// thread issues and does not wait for, so the next tile's loads overlap this tile's arithmetic.
/// Copies of 4, 8 or 16 bytes; `inside` false fills the destination with zeros and reads nothing
/// (the src-size operand 0), which is how a tile past the matrix's edge is padded. The thread
/// groups its copies (commit) and waits until at most N groups are still in flight; a barrier then
/// makes every thread's copies visible to the block. On older GPUs, and in the CPU emulation of
/// the tests, the copy is an ordinary synchronous one.
#pragma once
#include <cuda_runtime_api.h>

#include "vector_load.hpp"

#ifdef GPGPU_CUDA_EMULATION
#include <cstring>
#endif

namespace gpgpu::blas::cuda {

template <int Bytes>
__device__ __forceinline__ void copy_async(void* shared_dst, const void* global_src, bool inside) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
#if defined(GPGPU_CUDA_EMULATION)
  if (inside)
    std::memcpy(shared_dst, global_src, Bytes);
  else
    std::memset(shared_dst, 0, Bytes);
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(global_src), "n"(Bytes),
               "r"(inside ? Bytes : 0)
               : "memory");
#else
  for (int i = 0; i < Bytes; ++i)
    static_cast<char*>(shared_dst)[i] = inside ? static_cast<const char*>(global_src)[i] : char(0);
#endif
}

/// Closes the group of copies issued since the last commit.
__device__ __forceinline__ void copy_async_commit() {
#if !defined(GPGPU_CUDA_EMULATION) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void copy_async_wait() {
#if !defined(GPGPU_CUDA_EMULATION) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

/// Issues the copies of the Rows x Cols tile at (row0, col0) of the row-major rows x cols matrix
/// `src` into `dst`, zeros outside the matrix. The block's Threads threads share them: thread t
/// takes every Threads-th 16-byte segment of the tile, so neighbouring threads copy neighbouring
/// segments of a row. Aligned (cols a multiple of the lanes, so a segment is inside or outside as a
/// whole): one 16-byte copy per segment; otherwise one copy per element. Does not commit.
//! [copy_tile_async]
template <int Threads, bool Aligned, typename T, int Rows, int Cols>
__device__ __forceinline__ void copy_tile_async(T (&dst)[Rows][Cols], const T* src, int rows, int cols, int row0, int col0, int t) {
  constexpr int L = Vec16<T>::lanes;
  for (int e = t; e < Rows * Cols / L; e += Threads) {
    const int r = e / (Cols / L), c = e % (Cols / L) * L;
    const int row = row0 + r, col = col0 + c;
    if (Aligned) {
      const bool inside = row < rows && col < cols;
      copy_async<16>(&dst[r][c], inside ? src + row * cols + col : src, inside);
    } else {
#pragma unroll
      for (int l = 0; l < L; ++l) {
        const bool inside = row < rows && col + l < cols;
        copy_async<sizeof(T)>(&dst[r][c + l], inside ? src + row * cols + col + l : src, inside);
      }
    }
  }
}
//! [copy_tile_async]

}  // namespace gpgpu::blas::cuda
