/// @file warp_specialization.hpp
/// @brief The instructions chapter 10b's step 6 (10b_warp_specialized.cu) adds for splitting a
/// block into a producer warpgroup and consumer warpgroups, as inline PTX: moving registers between
/// warpgroups (setmaxnreg) and a barrier over some of the block's warps (bar.sync with a thread
/// count), since __syncthreads would wait for producer warps that have left.
///
/// setmaxnreg (PTX ISA, "Parallel Synchronization and Communication Instructions: setmaxnreg";
/// PTX ISA 8.0, sm_90a): sets the executing warp's per-thread register maximum to an immediate
/// count, which must be a multiple of 8 in 24 .. 256; .dec releases registers into a pool the block
/// (CTA) keeps, .inc takes them from it and blocks until the pool has enough (the new registers'
/// contents are undefined); every warp of a warpgroup must execute the same setmaxnreg
/// (.sync.aligned), and synchronise before another one. The pool starts from the registers the
/// block was launched with: the kernel's register count (ptxas -v) times its threads. So the
/// counts asked for must fit it, or .inc waits for ever: a hang, not an error.
///
/// sm_90a builds only, as wgmma.hpp; other targets get declarations.
#pragma once

namespace gpgpu::blas::cuda {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <int Registers>
__device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(Registers % 8 == 0 && Registers >= 24 && Registers <= 256, "setmaxnreg: a multiple of 8 in 24 .. 256");
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
}
template <int Registers>
__device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(Registers % 8 == 0 && Registers >= 24 && Registers <= 256, "setmaxnreg: a multiple of 8 in 24 .. 256");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
}
/// Barrier `id` (1 .. 15: 0 is __syncthreads') over `threads` threads, whole warps (PTX ISA, "bar.sync").
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
#else
template <int Registers>
__device__ void setmaxnreg_dec();
template <int Registers>
__device__ void setmaxnreg_inc();
__device__ void named_barrier_sync(int id, int threads);
#endif

}  // namespace gpgpu::blas::cuda
