/// @file wgmma.hpp
/// @brief The warpgroup tensor-core instructions of chapter 10b's wgmma steps, as inline PTX (PTX
/// ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions"). A warpgroup is 4
/// consecutive warps (128 threads, the first warp's index a multiple of 4); all of them execute
/// each instruction together (.sync.aligned). wgmma.mma_async reads B from shared memory and A from
/// shared memory or registers; the forms here read both from shared memory, through 64-bit matrix
/// descriptors (tensor_core_layout.hpp), and accumulate D in registers (which thread holds what:
/// tc::wgmma_d_element); it runs asynchronously:
///   wgmma.fence        before the first wgmma that touches the accumulators after other accesses
///                      to those registers;
///   wgmma.commit_group closes the group of wgmma issued since the last one;
///   wgmma.wait_group N waits until at most N groups are pending (then D may be read).
/// Shared memory written by the threads themselves (st.shared, cp.async: the generic proxy) must be
/// made visible to wgmma (the async proxy) by fence.proxy.async before the barrier that precedes
/// the wgmma (PTX ISA, "Memory Consistency Model: Proxies").
///
/// sm_90a only: CUDA's ptxas rejects wgmma for compute_90 without the "a" (architecture-specific)
/// features, so this header is for files built with CUDA_ARCHITECTURES 90a (10b_03_wgmma.cu); other
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

// The 128 FP32 accumulators of an m64n256 wgmma (step 7's 64 x 256 tile per warpgroup), the same way.
#define GPGPU_WGMMA_D128_LIST \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15," \
  " %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31," \
  " %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47," \
  " %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63," \
  " %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79," \
  " %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95," \
  " %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111," \
  " %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
#define GPGPU_WGMMA_D64(i) GPGPU_WGMMA_D8(i), GPGPU_WGMMA_D8(i + 8), GPGPU_WGMMA_D8(i + 16), GPGPU_WGMMA_D8(i + 24), \
                           GPGPU_WGMMA_D8(i + 32), GPGPU_WGMMA_D8(i + 40), GPGPU_WGMMA_D8(i + 48), GPGPU_WGMMA_D8(i + 56)
// D (64 x 256) = A (64 x K) · B (K x 256) + (scale_d ? D : 0): the same instruction with n = 256,
// the widest wgmma, so that each byte of A read from shared memory meets 256 columns of B.
#define GPGPU_WGMMA_M64N256(name, instruction, operands_tail)                                           \
  __device__ __forceinline__ void name(float(&d)[128], std::uint64_t a, std::uint64_t b, int scale_d) { \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n" instruction " " GPGPU_WGMMA_D128_LIST     \
                 ", %128, %129, p" operands_tail ";\n}\n"                                               \
                 : GPGPU_WGMMA_D64(0), GPGPU_WGMMA_D64(64)                                              \
                 : "l"(a), "l"(b), "r"(scale_d));                                                       \
  }
GPGPU_WGMMA_M64N256(wgmma_m64n256k8_tf32, "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32", ", 1, 1")
GPGPU_WGMMA_M64N256(wgmma_m64n256k16_bf16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", ", 1, 1, 0, 0")
// E4M3 (FP8): k = 32 one-byte values per instruction, the same 32 bytes of each row as k8 TF32 and
// k16 BF16; like TF32 it has no transpose operands (both K-major), only imm-scale-a and imm-scale-b.
GPGPU_WGMMA_M64N256(wgmma_m64n256k32_e4m3, "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", ", 1, 1")
#undef GPGPU_WGMMA_M64N256

// The 64 FP32 accumulators of an m64n128 wgmma: chapter 10c's step 2's half of a warpgroup's 64 x 256, one column
// block of scales, whose products fit beside the 128 promoted FP32 sums where m64n256's 128 would not.
#define GPGPU_WGMMA_D64_LIST \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15," \
  " %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31," \
  " %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47," \
  " %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define GPGPU_WGMMA_M64N128(name, instruction, operands_tail)                                         \
  __device__ __forceinline__ void name(float(&d)[64], std::uint64_t a, std::uint64_t b, int scale_d) { \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n" instruction " " GPGPU_WGMMA_D64_LIST     \
                 ", %64, %65, p" operands_tail ";\n}\n"                                              \
                 : GPGPU_WGMMA_D64(0)                                                                 \
                 : "l"(a), "l"(b), "r"(scale_d));                                                     \
  }
GPGPU_WGMMA_M64N128(wgmma_m64n128k32_e4m3, "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3", ", 1, 1")
#undef GPGPU_WGMMA_M64N128
#undef GPGPU_WGMMA_D64_LIST
#undef GPGPU_WGMMA_D64
#undef GPGPU_WGMMA_D128_LIST
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
__device__ void wgmma_m64n256k8_tf32(float (&d)[128], std::uint64_t a, std::uint64_t b, int scale_d);
__device__ void wgmma_m64n256k16_bf16(float (&d)[128], std::uint64_t a, std::uint64_t b, int scale_d);
__device__ void wgmma_m64n256k32_e4m3(float (&d)[128], std::uint64_t a, std::uint64_t b, int scale_d);
__device__ void wgmma_m64n128k32_e4m3(float (&d)[64], std::uint64_t a, std::uint64_t b, int scale_d);
#endif

}  // namespace gpgpu::blas::cuda
