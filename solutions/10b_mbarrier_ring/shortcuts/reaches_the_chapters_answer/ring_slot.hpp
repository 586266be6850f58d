/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): no
/// bookkeeping of its own, but the chapter's (kernels/blas/cuda/pipeline_ring.hpp) wherever the
/// include path reaches it. The check's include path holds only the student's folder, the
/// exercise's interface and the model of the mbarrier, so here the chapter's header is not found
/// and what is left is the skeleton's empty answer; were it found, this would pass.
#pragma once

#include "mbarrier_ring.hpp"

#if __has_include("blas/cuda/pipeline_ring.hpp") && __has_include(<cuda_runtime_api.h>)
#include "blas/cuda/pipeline_ring.hpp"
#define EX10B_CHAPTERS_ANSWER 1
#endif

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
#ifdef EX10B_CHAPTERS_ANSWER
  namespace tc = gpgpu::blas::cuda::tc;
  const tc::StagePhase p = tc::stage_phase(k_step, stages);
  const tc::EmptyWait w = tc::empty_wait(k_step, stages);
  return {p.stage, p.parity, w.wait, w.parity};
#else
  (void)k_step;
  (void)stages;
  return {0, 0u, false, 0u};
#endif
}

}  // namespace ex10b
