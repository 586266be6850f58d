// Chapter 10b, step 5: a pipeline of stages. Step 4 has one buffer per operand: the block asks TMA
// for a k-step's boxes, waits for them, multiplies, waits for the products, and only then asks for
// the next boxes, so the tensor cores idle while TMA copies and TMA idles while they multiply.
// Here the buffers form a ring of kStages stages, each with its own "full" mbarrier; the block
// requests the first kStages k-steps before it multiplies anything, and each time a stage is free
// again, the k-step kStages further on goes into it. While k-step s is multiplied, up to
// kStages - 1 later k-steps are landing.
//
// The products stay asynchronous as well: wgmma.wait_group 1 after issuing k-step s's group waits
// only for k-step s - 1's, so the tensor core always has one group queued; it is k-step s - 1's
// stage that is then free (after a barrier: every warp's wait must be done), and is refilled. Hence
// at least two stages (with one, the refill would overwrite the tiles in flight).
//
// The ring's arithmetic (which stage, which parity, which k-step refills which stage, where the
// stages lie in shared memory) is pipeline_ring.hpp, simulated on the CPU against a model of the
// mbarrier over k-step counts that are not multiples of kStages and below it
// (tests/test_pipeline_ring.cpp). The ring is in dynamic shared memory: 4 stages of 16 KiB (A and
// Bᵀ tiles of 64 rows x 128 bytes) are more than the 48 KiB a block gets without opting in.
//
// As in step 4: A and Bᵀ are K-major and read through tensor maps (here inside one
// __grid_constant__ TmaArgs: a map's address in the kernel's parameters is what TMA takes), one
// thread issues every TMA request, TF32 is rounded in shared memory after landing. Built for sm_90a only (with steps 3 and
// 4); the chapter refuses any GPU but compute capability 9.0 before launching.
#include "tensor_core_launchers.hpp"

#include <type_traits>

#include "gpgpu/cuda/check.hpp"
#include "pipeline_ring.hpp"
#include "tensor_core_layout.hpp"
#include "tma.hpp"
#include "tma_stages.hpp"
#include "wgmma.hpp"
#include "wgmma_tile.hpp"

namespace gpgpu::blas::cuda {
namespace {

// Four stages: three k-steps (3 x 16 KiB) landing while one is multiplied. The ring's 64 KiB and
// its barriers (TmaRing static_asserts the bytes against an H100 block's 227 KiB) leave room for
// three blocks per SM (on the H100 the ring gained nothing over step 4's resident blocks at this
// tile: the README's table of limits).
constexpr int kStages = 4;

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename In>
__global__ void gemm_pipeline(const __grid_constant__ TmaArgs) {
  __trap();
}
#else
//! [pipeline_kernel]
template <typename In>
__global__ void __launch_bounds__(128) gemm_pipeline(const __grid_constant__ TmaArgs g) {
  using Tiles = WgmmaTiles<In>;
  extern __shared__ unsigned char dynamic[];
  const TmaRing<In, kStages> ring(dynamic);
  const int steps = tc::tiles_for(g.k, Tiles::BK);
  const int thread = static_cast<int>(threadIdx.x);
  const bool issuer = thread == 0;
  const auto load = [&](int s) {
    const int stage = tc::stage_phase(s, kStages).stage;
    tma_load_k_step<In>(&g.a, &g.bt, ring.a(stage), ring.b(stage), ring.full(stage), blockIdx.y, blockIdx.x, s);
  };
  if (issuer) {
    for (int i = 0; i < kStages; ++i) mbarrier_init(ring.full(i), 1);  // one arrival per phase: the issuer's
    fence_mbarrier_init();
    for (int s = 0; s < tc::ring_prologue(steps, kStages); ++s) load(s);  // the ring filled ahead
  }
  __syncthreads();  // the barriers are initialised before anyone waits on them
  float acc[32];  // set by the first k-step's first wgmma (accumulate 0): no other instruction writes it
  for (int s = 0; s < steps; ++s) {
    const tc::StagePhase p = tc::stage_phase(s, kStages);
    mbarrier_wait_parity(ring.full(p.stage), p.parity);
    if constexpr (std::is_same_v<In, float>) {
      round_stage_to_tf32<Tiles::kThreads>(ring.a_tile(p.stage), ring.b_tile(p.stage), thread);
      __syncthreads();
    }
    wgmma_k_block_async<In>(acc, ring.a(p.stage), ring.b(p.stage), s > 0);
    wgmma_wait_group<1>();  // k-step s - 1's products are done; s's stay queued on the tensor core
    __syncthreads();        // in every warp: k-step s - 1's stage is free
    const int next = tc::ring_refill(s, kStages, steps);
    if (issuer && next >= 0) load(next);
  }
  wgmma_wait_group<0>();
  store_wgmma_tile(acc, g.c, g.m, g.n, blockIdx.y * Tiles::BM, blockIdx.x * Tiles::BN, thread);
}
//! [pipeline_kernel]
#endif

template <typename In>
void launch(const TmaArgs& g, cudaStream_t stream) {
  constexpr int kBytes = TmaRing<In, kStages>::kDynamicBytes;
  allow_dynamic_shared(gemm_pipeline<In>, kBytes);
  gemm_pipeline<In><<<tma_grid(g, "gemm_pipeline"), WgmmaTiles<In>::kThreads, kBytes, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_pipeline");
}

}  // namespace

GemmShape pipeline_shape() { return {WgmmaTiles<float>::BM, WgmmaTiles<float>::BN, WgmmaTiles<float>::kThreads}; }
int pipeline_stages() { return kStages; }
void launch_pipeline_tf32(const TmaArgs& g, cudaStream_t stream) { launch<float>(g, stream); }
void launch_pipeline_bf16(const TmaArgs& g, cudaStream_t stream) { launch<Bf16>(g, stream); }

}  // namespace gpgpu::blas::cuda
