/// @file mma_sync.hpp
/// @brief The warp-level tensor-core instructions of chapter 10b's mma.sync step, as inline PTX:
/// ldmatrix (a warp loads four 8 x 16-byte matrices from shared memory into fragments), mma.sync
/// m16n8k8 with TF32 inputs and m16n8k16 with BF16 inputs (FP32 accumulators, D = A·B + D), and
/// the rounding of FP32 to TF32. Which lane holds which element is tensor_core_layout.hpp's, from
/// the PTX ISA sections "Warp-level matrix load instruction: ldmatrix" and "Matrix Fragments for
/// mma.m16n8k8 / mma.m16n8k16 with floating point type". All 32 lanes of the warp must execute
/// each of them together (.sync.aligned). TF32 and BF16 mma need compute capability 8.0.
///
/// In the CPU emulation of the tests (GPGPU_CUDA_EMULATION) these functions are not defined here:
/// tests/mma_sync_emulation.hpp defines them, from the same PTX ISA sections, on the fibers.
#pragma once
#include <cstdint>

#include <cuda_runtime_api.h>

#ifndef GPGPU_CUDA_EMULATION

namespace gpgpu::blas::cuda {

/// The shared-memory address (the .shared window) of a generic pointer into shared memory.
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

/// ldmatrix .x4: `row` is the address of the row this lane gives (lane 8j + r: row r of matrix j,
/// 16 bytes, 16-byte aligned); register j receives this lane's part of matrix j.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row)));
}

/// The same, each 8 x 8 matrix of 16-bit elements transposed on the way.
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row)));
}

/// FP32 to TF32, to nearest with ties away from zero (cvt.rna), as WMMA's __float_to_tf32: the
/// mma reads only a TF32 operand's upper 19 bits, so an unrounded one would be truncated.
__device__ __forceinline__ std::uint32_t to_tf32(float x) {
  std::uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
}

//! [mma_tf32]
/// d += a·b for a 16 x 8 (A, TF32) by 8 x 8 (B, TF32) product, FP32 accumulators.
__device__ __forceinline__ void mma_m16n8k8_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
//! [mma_tf32]

/// d += a·b for a 16 x 16 (A, BF16) by 16 x 8 (B, BF16) product, FP32 accumulators.
__device__ __forceinline__ void mma_m16n8k16_bf16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

#else
// Older targets of a fat binary (sm_75): the kernels that call these are stubs there (see
// 10b_02_mma_sync.cu), but the declarations keep their source compiling.
__device__ void ldmatrix_x4(std::uint32_t (&r)[4], const void* row);
__device__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], const void* row);
__device__ std::uint32_t to_tf32(float x);
__device__ void mma_m16n8k8_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]);
__device__ void mma_m16n8k16_bf16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]);
#endif

}  // namespace gpgpu::blas::cuda

#endif  // GPGPU_CUDA_EMULATION
