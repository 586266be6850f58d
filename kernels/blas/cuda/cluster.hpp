/// @file cluster.hpp
/// @brief What chapter 10b's step 9 (10b_09_cluster.cu) adds for thread-block clusters, as inline PTX:
/// the block's rank in its cluster, a barrier over every thread of the cluster, an arrival on an
/// mbarrier in another block's shared memory, and the TMA load that writes one box into the shared
/// memory of several blocks of the cluster at once (multicast).
///
/// A cluster (compute capability 9.0) is a group of blocks the hardware runs at the same time on
/// SMs of one GPC; each block can address the others' shared memory ("distributed shared memory",
/// the .shared::cluster window; mapa turns an own shared address into the same offset in block
/// `rank`). PTX ISA sections: "Special Registers: %cluster_ctarank", "barrier.cluster", "mapa",
/// "mbarrier.arrive" (.shared::cluster), "cp.async.bulk.tensor" (.multicast::cluster).
///
/// sm_90a builds only, as wgmma.hpp; other targets get declarations.
#pragma once
#include <cstdint>

#include <cuda.h>  // CUtensorMap
#include <cuda_runtime_api.h>

namespace gpgpu::blas::cuda {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

/// This block's rank within its cluster (0 .. cluster size - 1).
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}

/// Every thread of every block of the cluster: what each did to shared memory (its own or another
/// block's) and to mbarriers before, visible to all after. Used after the mbarriers are initialised
/// (no block may signal a peer's barrier before it exists) and before a block exits (no block may
/// leave while a peer can still write into its shared memory).
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}

/// One arrival on the mbarrier at shared offset `bar` of block `rank` of the cluster (this block's
/// own included). The arrival's default semantics, release at CTA scope, as for a local arrival:
/// what it must order is the wgmma reads of the stage, which wgmma.wait_group has already
/// completed; a release at cluster scope would also wait for this thread's earlier global stores
/// (the last tile's C) to reach the cluster's view, at every k-step.
__device__ __forceinline__ void mbarrier_arrive_cluster(std::uint32_t bar, unsigned rank) {
  asm volatile(
      "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(bar),
      "r"(rank)
      : "memory");
}

/// tma_load_2d (tma.hpp) into every block of the cluster named by the bits of `blocks`: the box
/// lands at the same shared offset `dst` in each, and completes its bytes on the mbarrier at the
/// same offset `bar` in each.
//! [tma_load_2d_multicast]
__device__ __forceinline__ void tma_load_2d_multicast(std::uint32_t dst, const CUtensorMap* map, int inner, int outer,
                                                      std::uint32_t bar, std::uint16_t blocks) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(inner), "r"(outer), "r"(bar), "h"(blocks)
      : "memory");
}
//! [tma_load_2d_multicast]

#else
__device__ unsigned cluster_rank();
__device__ void cluster_sync();
__device__ void mbarrier_arrive_cluster(std::uint32_t bar, unsigned rank);
__device__ void tma_load_2d_multicast(std::uint32_t dst, const CUtensorMap* map, int inner, int outer, std::uint32_t bar,
                                      std::uint16_t blocks);
#endif

}  // namespace gpgpu::blas::cuda
