/// @file tma.hpp
/// @brief Hopper's tensor memory accelerator and the mbarrier that tracks it, as inline PTX, for
/// chapter 10b's step 4 (10b_04_tma.cu). One thread initialises an mbarrier in shared memory with an
/// arrival count; one thread arrives on it, announcing the bytes the TMA copies will bring
/// (mbarrier.arrive.expect_tx), and issues the copies (cp.async.bulk.tensor), which complete their
/// bytes on the barrier; every thread waits for the phase to complete (mbarrier.try_wait.parity,
/// the phase's parity from tc::stage_phase). PTX ISA sections: "Data Movement and Conversion
/// Instructions: cp.async.bulk.tensor" and "Parallel Synchronization and Communication
/// Instructions: mbarrier" (init, arrive, try_wait, and fence.mbarrier_init under "membar/fence").
///
/// sm_90a builds only, as wgmma.hpp (the one file that includes it is built for sm_90a alone);
/// other targets get declarations, and the kernels that call them are stubs there.
#pragma once
#include <cstdint>

#include <cuda.h>  // CUtensorMap
#include <cuda_runtime_api.h>

namespace gpgpu::blas::cuda {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

/// mbarrier.init: the barrier at shared address `bar` expects `count` arrivals per phase.
__device__ __forceinline__ void mbarrier_init(std::uint32_t bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
/// Makes this thread's mbarrier.init visible to the other threads and to the async proxy (TMA's
/// complete_tx) before the barrier that follows it.
__device__ __forceinline__ void fence_mbarrier_init() { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }

/// One arrival on `bar`, and `bytes` more transaction bytes expected in its current phase.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint32_t bar, unsigned bytes) {
  asm volatile("{\n.reg .b64 state;\nmbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n}\n" ::"r"(bar), "r"(bytes)
               : "memory");
}

/// One arrival on `bar`, nothing expected: step 6's consumers releasing a stage on its "empty"
/// barrier. Release semantics (the default .release.cta): the wgmma reads and generic writes before
/// it are ordered before the producer's wait that observes the phase.
__device__ __forceinline__ void mbarrier_arrive(std::uint32_t bar) {
  asm volatile("{\n.reg .b64 state;\nmbarrier.arrive.shared::cta.b64 state, [%0];\n}\n" ::"r"(bar) : "memory");
}

/// Waits until the phase of parity `parity` of `bar` has completed (try_wait may give up after a
/// time the hardware chooses: loop until it reports completion).
//! [mbarrier_wait]
__device__ __forceinline__ void mbarrier_wait_parity(std::uint32_t bar, unsigned parity) {
  asm volatile(
      "{\n.reg .pred done;\nwait_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_%=;\n}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}
//! [mbarrier_wait]

/// The box of `map` whose first element is at (inner, outer) = (column, row), into shared `dst`
/// (aligned for the map's swizzle: 1024 bytes for 128B), its bytes completed on `bar`. Elements
/// outside the tensor arrive as zeros and still count. The map is a __grid_constant__ kernel
/// parameter: its generic address is what the instruction takes.
//! [tma_load_2d]
__device__ __forceinline__ void tma_load_2d(std::uint32_t dst, const CUtensorMap* map, int inner, int outer, std::uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(inner), "r"(outer), "r"(bar)
      : "memory");
}
//! [tma_load_2d]

#else
__device__ void mbarrier_init(std::uint32_t bar, unsigned count);
__device__ void fence_mbarrier_init();
__device__ void mbarrier_arrive_expect_tx(std::uint32_t bar, unsigned bytes);
__device__ void mbarrier_arrive(std::uint32_t bar);
__device__ void mbarrier_wait_parity(std::uint32_t bar, unsigned parity);
__device__ void tma_load_2d(std::uint32_t dst, const CUtensorMap* map, int inner, int outer, std::uint32_t bar);
#endif

}  // namespace gpgpu::blas::cuda
