/// @file fma_peak.hpp
/// @brief The compute roof of the GPU for chapters 10 and 12: the FP32 or FP64 FMA rate of
/// kernels/blas/cuda/10_fma_peak.cu, measured now on the session's device.
#pragma once
#include "gpgpu/blas/peak.hpp"

namespace gpgpu::blas::cuda {

/// The FMA peak of the session's GPU in `type`: every SM full of threads running independent FMA
/// chains, the best of five timed launches after a warm-up. A CUDA variant's `peak`.
Peak fma_peak(ElementType type, Session& session);

}  // namespace gpgpu::blas::cuda
