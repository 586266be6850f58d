/// @file wgmma.hpp
/// @brief The warpgroup tensor-core instructions of chapter 10b's wgmma steps, as inline PTX (PTX
/// ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions"). A warpgroup is 4
/// consecutive warps (128 threads, the first warp's index a multiple of 4); all of them execute
/// each instruction together (.sync.aligned). wgmma.mma_async reads A and B from shared memory
/// through 64-bit matrix descriptors (tensor_core_layout.hpp) and accumulates D in registers
/// (which thread holds what: tc::wgmma_d_element); it runs asynchronously:
///   wgmma.fence        before the first wgmma that touches the accumulators after other accesses
///                      to those registers;
///   wgmma.commit_group closes the group of wgmma issued since the last one;
///   wgmma.wait_group N waits until at most N groups are pending (then D may be read).
/// Shared memory written by the threads themselves (st.shared, cp.async: the generic proxy) must be
/// made visible to wgmma (the async proxy) by fence.proxy.async before the barrier that precedes
/// the wgmma (PTX ISA, "Memory Consistency Model: Proxies").
///
/// sm_90a only: CUDA's ptxas rejects wgmma for compute_90 without the "a" (architecture-specific)
/// features, so this header is for files built with CUDA_ARCHITECTURES 90a (10b_wgmma.cu); other
/// targets get declarations only, and the kernels that call them are stubs there.
#pragma once
#include <cstdint>

#include <cuda_runtime_api.h>

namespace gpgpu::blas::cuda {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit_group() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait_group() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
/// This thread's generic-proxy writes to shared memory, visible to the async proxy (wgmma, TMA).
__device__ __forceinline__ void fence_proxy_async_shared() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// The 32 FP32 accumulators of an m64n64 wgmma: the operand list and the matching "{%0, ..., %31}".
#define GPGPU_WGMMA_D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
                          "+f"(d[i + 6]), "+f"(d[i + 7])
#define GPGPU_WGMMA_D32_LIST                                                                                        \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
  "%24, %25, %26, %27, %28, %29, %30, %31}"
// D (64 x 64) = A (64 x K, descriptor a) · B (K x 64, descriptor b) + (scale_d ? D : 0), both
// operands from shared memory; `operands_tail` ends the instruction's immediate list: scale-a and
// scale-b of 1 (no negation), and for .bf16 imm-trans-a and imm-trans-b of 0 (both K-major).
//! [wgmma_m64n64]
#define GPGPU_WGMMA_M64N64(name, instruction, operands_tail)                                           \
  __device__ __forceinline__ void name(float(&d)[32], std::uint64_t a, std::uint64_t b, int scale_d) { \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n" instruction " " GPGPU_WGMMA_D32_LIST      \
                 ", %32, %33, p" operands_tail ";\n}\n"                                                \
                 : GPGPU_WGMMA_D8(0), GPGPU_WGMMA_D8(8), GPGPU_WGMMA_D8(16), GPGPU_WGMMA_D8(24)       \
                 : "l"(a), "l"(b), "r"(scale_d));                                                      \
  }
// TF32 has no transpose operands (the PTX ISA allows them for .f16/.bf16 only): B must be K-major.
GPGPU_WGMMA_M64N64(wgmma_m64n64k8_tf32, "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32", ", 1, 1")
GPGPU_WGMMA_M64N64(wgmma_m64n64k16_bf16, "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16", ", 1, 1, 0, 0")
//! [wgmma_m64n64]
#undef GPGPU_WGMMA_M64N64
#undef GPGPU_WGMMA_D32_LIST
#undef GPGPU_WGMMA_D8

#else
__device__ void wgmma_fence();
__device__ void wgmma_commit_group();
template <int N>
__device__ void wgmma_wait_group();
__device__ void fence_proxy_async_shared();
__device__ void wgmma_m64n64k8_tf32(float (&d)[32], std::uint64_t a, std::uint64_t b, int scale_d);
__device__ void wgmma_m64n64k16_bf16(float (&d)[32], std::uint64_t a, std::uint64_t b, int scale_d);
#endif

}  // namespace gpgpu::blas::cuda
