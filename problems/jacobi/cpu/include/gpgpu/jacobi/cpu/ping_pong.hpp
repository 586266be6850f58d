/// @file ping_pong.hpp
/// @brief The iteration loop both CPU layouts share: every thread sweeps its own contiguous block
/// of nodes, all threads meet at a barrier, and the new iterate becomes the input of the next step
/// (ping-pong between two buffers).
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "gpgpu/jacobi/layouts.hpp"

namespace gpgpu::jacobi::cpu {

/// Runs `iters` sweeps on `threads` OpenMP threads. `sweep(in, out, begin, end)` updates nodes
/// [begin, end): a plain loop over a range, which the compiler can vectorise. Each thread keeps the
/// same block in every iteration (it stays in that core's caches). On return the last iterate is
/// in `x`.
//! [ping_pong]
template <typename Sweep>
void iterate_ping_pong(int threads, int iters, GhostPadded<float>& x,
                       GhostPadded<float>& next, Sweep sweep) {
  const std::int64_t nodes = x.grid.nodes();
  float* in = x.interior();
  float* out = next.interior();
#pragma omp parallel num_threads(threads) firstprivate(in, out) if (threads > 1)
  {
    int id = 0, count = 1;
#ifdef _OPENMP
    id = omp_get_thread_num();
    count = omp_get_num_threads();
#endif
    const std::int64_t chunk = (nodes + count - 1) / count;
    const std::int64_t begin = std::min(nodes, id * chunk);
    const std::int64_t end = std::min(nodes, begin + chunk);
    for (int it = 0; it < iters; ++it) {
      sweep(in, out, begin, end);
#pragma omp barrier
      std::swap(in, out);  // every thread swaps its own copy of the two pointers
    }
  }
  if (iters % 2 == 1) std::swap(x, next);  // an odd number of sweeps leaves the result in `next`
}
//! [ping_pong]

}  // namespace gpgpu::jacobi::cpu
