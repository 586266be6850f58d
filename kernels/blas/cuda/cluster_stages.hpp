/// @file cluster_stages.hpp
/// @brief What chapter 10b's cluster steps (9: 10b_09_cluster.cu, 10: 10b_10_stream_k.cu) do to the ring
/// of stages on top of tma_stages.hpp: one k-step's boxes requested by one block of a cluster (its
/// own A, its share of the Bᵀ boxes multicast into every block), a consumer warp's release of a
/// stage to the producers of every block (each refills part of every block's stage), and the launch
/// of a grid of clusters.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cluster.hpp"
#include "gpgpu/cuda/check.hpp"
#include "tensor_core_launchers.hpp"
#include "tensor_core_layout.hpp"
#include "tma.hpp"
#include "wgmma_tile.hpp"

namespace gpgpu::blas::cuda {

#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
/// tma_load_k_step (tma_stages.hpp) for block `rank` of a cluster of ClusterSize blocks that share
/// their Bᵀ tile: its own A boxes, and Bᵀ boxes rank·share .. rank·share + share - 1 multicast into
/// every block of the cluster.
//! [cluster_load]
template <typename In, typename T, int ClusterSize>
__device__ __forceinline__ void tma_load_k_step_shared_b(const TmaArgs& g, unsigned as, unsigned bs, unsigned bar, int tile_m,
                                                         int tile_n, int k_step, unsigned rank) {
  constexpr int kBytes = static_cast<int>(sizeof(In));
  constexpr int kBoxRows = WgmmaTiles<In>::BM, kBoxBytes = kBoxRows * T::kRowBytes;
  constexpr int kBBoxes = T::BN / kBoxRows, kShare = kBBoxes / ClusterSize;
  constexpr auto kEveryBlock = static_cast<std::uint16_t>((1u << ClusterSize) - 1);
  static_assert(kBBoxes % ClusterSize == 0, "every block multicasts the same number of Bᵀ boxes");
  mbarrier_arrive_expect_tx(bar, tc::box_bytes(T::BK, T::BM, kBytes) + tc::box_bytes(T::BK, T::BN, kBytes));
#pragma unroll
  for (int i = 0; i < T::BM / kBoxRows; ++i) {
    const tc::BoxCoord a = tc::a_box(tile_m * (T::BM / kBoxRows) + i, k_step, kBoxRows, T::BK);
    tma_load_2d(as + i * kBoxBytes, &g.a, a.inner, a.outer, bar);
  }
#pragma unroll
  for (int j = 0; j < kShare; ++j) {
    const int i = static_cast<int>(rank) * kShare + j;
    const tc::BoxCoord b = tc::a_box(tile_n * kBBoxes + i, k_step, kBoxRows, T::BK);
    tma_load_2d_multicast(bs + i * kBoxBytes, &g.bt, b.inner, b.outer, bar, kEveryBlock);
  }
}
//! [cluster_load]

/// One consumer warp's release of the stage whose "empty" mbarrier is at `empty` to the producers
/// of every block (lane 0, once the warp's wgmma reading it have completed).
template <int ClusterSize>
__device__ __forceinline__ void release_to_cluster(unsigned empty) {
  __syncwarp();
  if (threadIdx.x % 32 == 0)
    for (unsigned r = 0; r < ClusterSize; ++r) mbarrier_arrive_cluster(empty, r);
}
#endif

/// The launch of a grid of clusters of ClusterSize blocks along x (cudaLaunchKernelEx with the
/// cluster dimension as an attribute); the caller sets config.gridDim.
template <int ClusterSize>
struct ClusterLaunch {
  cudaLaunchAttribute cluster{};
  cudaLaunchConfig_t config{};

  //! [cluster_launch_config]
  ClusterLaunch(int threads, int dynamic_bytes, cudaStream_t stream) {
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = ClusterSize;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = static_cast<std::size_t>(dynamic_bytes);
    config.stream = stream;
    config.attrs = &cluster;
    config.numAttrs = 1;
  }
  //! [cluster_launch_config]
  ClusterLaunch(const ClusterLaunch&) = delete;  // config points at this object's attribute
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;

  /// The most clusters of Kernel the GPU holds at once (cudaOccupancyMaxActiveClusters: pairs of
  /// SMs of one GPC that can each hold a block), asked once per kernel, as the query is not free and
  /// the chapter runs on one device.
  template <auto Kernel>
  int most(const char* name) const {
    static const int clusters = [this, name] {
      cudaLaunchConfig_t one = config;
      one.gridDim = dim3(ClusterSize);
      int count = 0;
      GPGPU_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&count, Kernel, &one));
      if (count < 1) throw std::runtime_error(std::string(name) + ": the GPU cannot hold one cluster of these blocks");
      return count;
    }();
    return clusters;
  }
};

}  // namespace gpgpu::blas::cuda
