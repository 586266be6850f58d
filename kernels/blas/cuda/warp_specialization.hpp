/// @file warp_specialization.hpp
/// @brief The instructions chapter 10b's step 6 (10b_06_warp_specialized.cu) adds for splitting a
/// block into a producer warpgroup and consumer warpgroups, as inline PTX: moving registers between
/// warpgroups (setmaxnreg) and a barrier over some of the block's warps (bar.sync with a thread
/// count, and bar.arrive, which counts without waiting), since __syncthreads would wait for
/// producer warps that have left.
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
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

#include "gpgpu/cuda/check.hpp"

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
/// An arrival on barrier `id` that does not wait for it (PTX ISA, "bar.arrive"): the warps that
/// bar.sync on it with the same count wait for these arrivals as well as for each other.
__device__ __forceinline__ void named_barrier_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
#else
template <int Registers>
__device__ void setmaxnreg_dec();
template <int Registers>
__device__ void setmaxnreg_inc();
__device__ void named_barrier_sync(int id, int threads);
__device__ void named_barrier_arrive(int id, int threads);
#endif

/// Two consumer warpgroups taking turns at issuing wgmma (chapter 10c's step 2), through named barriers 1 and 2:
/// consumer c waits on barrier 1 + c for its turn (wait) and, once its wgmma are issued, hands the
/// turn over by arriving on the other's without waiting (pass). Consumer 1 hands consumer 0 the
/// first turn, so consumer 0 goes first, and consumer 0 takes the turn consumer 1 hands back after
/// its last (finish): every phase of both barriers completes, whatever the number of turns (0
/// included). The tensor cores then run one warpgroup's wgmma while the other works on its sums.
//! [consumer_turns]
struct ConsumerTurns {
  int consumer;  // 0 or 1
  static constexpr int kThreads = 2 * 128;  // both warpgroups meet at each barrier

  __device__ explicit ConsumerTurns(int c) : consumer(c) {
    if (consumer == 1) named_barrier_arrive(1, kThreads);
  }
  __device__ void wait() const { named_barrier_sync(1 + consumer, kThreads); }
  __device__ void pass() const { named_barrier_arrive(2 - consumer, kThreads); }
  __device__ void finish() const {
    if (consumer == 0) named_barrier_sync(1, kThreads);
  }
};
//! [consumer_turns]

/// setmaxnreg's counts of a kernel with one producer warpgroup and `consumers` consumer warpgroups.
struct RegisterSplit {
  int producer;   ///< the producer's setmaxnreg.dec count
  int consumer;   ///< each consumer's setmaxnreg.inc count
  int consumers;  ///< consumer warpgroups
};

/// Host side, before the first launch: the registers each thread of `kernel` is launched with (its
/// ptxas count) must give setmaxnreg's pool enough for the split, or the consumers' .inc waits for
/// ever (a hang, not an error), and must lie between the two counts: .inc to a count below the
/// current one, or .dec to one above it, is undefined (PTX ISA, setmaxnreg). Throws with the reason.
//! [register_pool]
template <typename Kernel>
void check_register_pool(Kernel* kernel, const char* name, RegisterSplit split) {
  cudaFuncAttributes attributes{};
  GPGPU_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  const int launched = attributes.numRegs, warpgroups = 1 + split.consumers;
  const int needed = split.producer + split.consumers * split.consumer;  // per thread of each warpgroup
  std::string why;
  if (launched * warpgroups < needed)
    why = "setmaxnreg's counts need " + std::to_string((needed + warpgroups - 1) / warpgroups) +
          " (the consumers' setmaxnreg.inc would wait for ever)";
  else if (launched > split.consumer)
    why = "more than the consumers' setmaxnreg.inc count " + std::to_string(split.consumer) + " (undefined)";
  else if (launched < split.producer)
    why = "fewer than the producer's setmaxnreg.dec count " + std::to_string(split.producer) + " (undefined)";
  if (!why.empty())
    throw std::runtime_error(std::string(name) + ": launched with " + std::to_string(launched) + " registers per thread, " + why);
}
//! [register_pool]

}  // namespace gpgpu::blas::cuda
