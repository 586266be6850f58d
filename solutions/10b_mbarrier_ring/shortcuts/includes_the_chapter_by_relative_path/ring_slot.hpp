/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): the
/// buffer and the parities from the chapter's own stage_phase (kernels/blas/cuda/
/// tensor_core_layout.hpp), reached by a path relative to this file, which no include path decides.
/// It compiles wherever the CUDA headers that the chapter's header needs are on the compiler's path
/// (its build here is given them, standing for such a machine), and then every ring passes the
/// model: only the check's scan of this file's #includes fails it. Where they are not, the
/// skeleton's empty answer is left, and fails too.
#pragma once

#include "mbarrier_ring.hpp"

#if __has_include("../../../../kernels/blas/cuda/tensor_core_layout.hpp") && __has_include(<cuda_runtime_api.h>)
#include "../../../../kernels/blas/cuda/tensor_core_layout.hpp"

namespace ex10b {

// The consumers wait for the fill's phase, the producer (on every fill) for the one before it.
EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  const gpgpu::blas::cuda::tc::StagePhase p = gpgpu::blas::cuda::tc::stage_phase(k_step, stages);
  return {p.stage, p.parity, true, p.parity ^ 1u};
}

}  // namespace ex10b
#else
namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int, int) { return {0, 0u, false, 0u}; }

}  // namespace ex10b
#endif
