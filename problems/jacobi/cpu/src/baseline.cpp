// The CPU baseline later chapters compare against: chapter 01's faster layout, serial and on
// every core, timed on the same system the GPU solves.
#include <algorithm>
#include <vector>

#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::jacobi::cpu {
namespace {

// Best of three timed samples: a handful of iterations lasts well under a millisecond on many
// cores, where one descheduled thread would otherwise decide the result.
template <typename Solver>
double seconds_per_iteration(const LinearSystem& sys, int sample_iters, int threads) {
  Solver solver(sys, threads);
  solver.reset(std::vector<float>(static_cast<std::size_t>(sys.grid.nodes()), 0.0f));
  solver.iterate(1, 0.8f);  // first touch of the buffers
  std::vector<double> samples;
  for (int sample = 0; sample < 3; ++sample) samples.push_back(solver.iterate(sample_iters, 0.8f) / sample_iters);
  return gpgpu::minimum(samples);
}

}  // namespace

CpuBaseline measure_cpu_baseline(const LinearSystem& sys, int sample_iters, int threads) {
  CpuBaseline b;
  b.sample_iters = sample_iters;
  b.threads = threads;
  b.single_thread_s_per_iter = std::min(seconds_per_iteration<SeparateDiagonalsSolver>(sys, sample_iters, 1),
                                        seconds_per_iteration<InterleavedRowsSolver>(sys, sample_iters, 1));
  b.multi_thread_s_per_iter = std::min(seconds_per_iteration<SeparateDiagonalsSolver>(sys, sample_iters, threads),
                                       seconds_per_iteration<InterleavedRowsSolver>(sys, sample_iters, threads));
  return b;
}

}  // namespace gpgpu::jacobi::cpu
