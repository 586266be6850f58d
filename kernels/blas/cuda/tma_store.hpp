/// @file tma_store.hpp
/// @brief What chapter 10b's step 11 (10b_11_tma_store.cu) adds to tma.hpp for writing C through
/// shared memory, as inline PTX: the threads' stores into the staging buffer (stmatrix for 16-bit
/// elements, a vector st.shared for 32-bit ones), and the TMA store that copies a box of it to
/// global memory, with its bulk async-group: commit, and the waits for the engine to have read the
/// buffer (.read: it may be overwritten) or to have written the box (global memory holds it).
/// PTX ISA sections: "Data Movement and Conversion Instructions: stmatrix", "cp.async.bulk.tensor"
/// (.global.shared::cta, .bulk_group), "cp.async.bulk.commit_group", "cp.async.bulk.wait_group".
///
/// The order the kernel keeps (PTX ISA, "Memory Consistency Model: Proxies"): the threads' stores
/// go through the generic proxy and the TMA store reads through the async proxy, so every thread
/// fences its own stores (fence.proxy.async.shared::cta, wgmma.hpp) before the barrier after which
/// one thread issues the TMA store; and nobody writes the buffer again before the issuing thread's
/// wait_group.read has returned and a barrier has told the others.
///
/// Chapter 09's step 14 (09_14_transpose_tma.cu) stores its transposed tiles with the same TMA store
/// and bulk groups. sm_90a builds only, as tma.hpp; other targets get declarations.
#pragma once
#include <cstdint>

#include <cuda.h>  // CUtensorMap
#include <cuda_runtime_api.h>

namespace gpgpu::blas::cuda {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

/// stmatrix .x4: four 8 x 8 matrices of 16-bit elements from the warp's registers into shared
/// memory; this lane gives the shared address of one row (tc::ldmatrix_x4_row says which) and
/// register j its two elements of matrix j (row lane / 4, columns 2 (lane % 4) and + 1).
//! [stmatrix_x4]
__device__ __forceinline__ void stmatrix_x4(std::uint32_t row, std::uint32_t r0, std::uint32_t r1, std::uint32_t r2,
                                            std::uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(row), "r"(r0), "r"(r1), "r"(r2),
               "r"(r3)
               : "memory");
}
//! [stmatrix_x4]

/// Two floats into 8 bytes of shared memory at shared address `at` (8-byte aligned).
__device__ __forceinline__ void store_shared_pair(std::uint32_t at, float x, float y) {
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(at), "f"(x), "f"(y) : "memory");
}

/// The box of `map` whose first element is at (inner, outer) = (column, row) written from shared
/// `src` (aligned for the map's swizzle: 1024 bytes for 128B); elements outside the tensor are not
/// written. Joins this thread's current bulk async-group.
//! [tma_store_2d]
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, int inner, int outer, std::uint32_t src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
                   reinterpret_cast<std::uint64_t>(map)),
               "r"(inner), "r"(outer), "r"(src)
               : "memory");
}
//! [tma_store_2d]

/// Closes this thread's bulk async-group: the stores issued since the last commit.
__device__ __forceinline__ void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }

/// Waits until at most N of this thread's bulk groups still read their shared memory: the buffers
/// of the others may be written again (their global writes may still be under way).
template <int N>
__device__ __forceinline__ void bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}

/// Waits until at most N of this thread's bulk groups are pending at all: the others' writes to
/// global memory are done (before the block exits).
template <int N>
__device__ __forceinline__ void bulk_wait_group() {
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory");
}

#else
__device__ void stmatrix_x4(std::uint32_t row, std::uint32_t r0, std::uint32_t r1, std::uint32_t r2, std::uint32_t r3);
__device__ void store_shared_pair(std::uint32_t at, float x, float y);
__device__ void tma_store_2d(const CUtensorMap* map, int inner, int outer, std::uint32_t src);
__device__ void bulk_commit_group();
template <int N>
__device__ void bulk_wait_group_read();
template <int N>
__device__ void bulk_wait_group();
#endif

}  // namespace gpgpu::blas::cuda
