/// @file ping_pong.hpp
/// @brief The iteration loop both CPU layouts share: a parallel sweep over the nodes, then the new
/// iterate becomes the input of the next step (ping-pong between two buffers).
#pragma once
#include <cstdint>
#include <utility>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "gpgpu/layouts.hpp"
#include "gpgpu/reference.hpp"

namespace ch01 {

/// Runs `iters` sweeps of `update(in, out, k)` over k = 0..nodes-1 on `threads` OpenMP threads
/// (static schedule: each thread always gets the same contiguous block of rows). On return the
/// last iterate is in `x`.
template <typename Update>
void iterate_ping_pong(int threads, int iters, gpgpu::GhostPadded<float>& x, gpgpu::GhostPadded<float>& next,
                       const gpgpu::ProgressCallback& progress, Update update) {
  const std::int64_t nodes = x.grid.nodes();
  float* in = x.interior();
  float* out = next.interior();
  // One parallel region for all iterations: the implicit barrier at the end of `omp for` keeps the
  // iterations in step, and every thread swaps its own copy of the two pointers.
#pragma omp parallel num_threads(threads) firstprivate(in, out) if (threads > 1)
  for (int it = 0; it < iters; ++it) {
#pragma omp for schedule(static)
    for (std::int64_t k = 0; k < nodes; ++k) update(in, out, k);
    std::swap(in, out);
#ifdef _OPENMP
    if (progress && omp_get_thread_num() == 0) progress(it + 1, iters);
#else
    if (progress) progress(it + 1, iters);
#endif
  }
  if (iters % 2 == 1) std::swap(x, next);  // an odd number of sweeps leaves the result in `next`
}

}  // namespace ch01
