// The CPU baseline later chapters compare against: chapter 01's faster layout, serial and on
// every core, timed on the same system the GPU solves.
#include <algorithm>
#include <vector>

#include "cpu_jacobi.hpp"
#include "gpgpu/timing.hpp"

namespace ch01 {
namespace {

template <typename Solver>
double seconds_per_iteration(const gpgpu::LinearSystem& sys, int sample_iters, int threads) {
  Solver solver(sys, threads);
  solver.reset(std::vector<float>(static_cast<std::size_t>(sys.grid.nodes()), 0.0f));
  solver.iterate(1, 0.8f);  // first touch of the buffers
  gpgpu::Stopwatch clock;
  solver.iterate(sample_iters, 0.8f);
  return clock.seconds() / sample_iters;
}

}  // namespace

CpuBaseline measure_cpu_baseline(const gpgpu::LinearSystem& sys, int sample_iters, int threads) {
  CpuBaseline b;
  b.threads = threads;
  b.single_thread_s_per_iter = std::min(seconds_per_iteration<SeparateDiagonalsSolver>(sys, sample_iters, 1),
                                        seconds_per_iteration<InterleavedRowsSolver>(sys, sample_iters, 1));
  b.multi_thread_s_per_iter = std::min(seconds_per_iteration<SeparateDiagonalsSolver>(sys, sample_iters, threads),
                                       seconds_per_iteration<InterleavedRowsSolver>(sys, sample_iters, threads));
  return b;
}

}  // namespace ch01
