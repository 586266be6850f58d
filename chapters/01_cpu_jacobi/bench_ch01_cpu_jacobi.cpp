// Google Benchmark for chapter 01: every layout and thread count at three sizes, with GB/s and
// GFLOP/s counters from the work-count table. JSON: --benchmark_out=FILE --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/jacobi/bench.hpp"

namespace {

constexpr int kItersPerRun = 10;

template <typename Solver>
void run(benchmark::State& state, int threads) {
  const int n = static_cast<int>(state.range(0));
  const gpgpu::jacobi::LinearSystem& sys = gpgpu::jacobi::bench::cached_bidomain_system(n, n);
  Solver solver(sys, threads);
  const std::vector<float> x0(static_cast<std::size_t>(sys.grid.nodes()), 1.0f);
  solver.reset(x0);
  for (auto _ : state) {
    solver.iterate(kItersPerRun, 0.8f);
    benchmark::ClobberMemory();
  }
  gpgpu::jacobi::bench::set_counters(state, "jacobi9", sys.grid, kItersPerRun);
  state.counters["threads"] = threads;
  state.SetLabel(std::to_string(n) + "x" + std::to_string(n) + ", " + std::to_string(kItersPerRun) + " iterations");
}

void separate(benchmark::State& s) { run<gpgpu::jacobi::cpu::SeparateDiagonalsSolver>(s, 1); }
void interleaved(benchmark::State& s) { run<gpgpu::jacobi::cpu::InterleavedRowsSolver>(s, 1); }
void separate_openmp(benchmark::State& s) { run<gpgpu::jacobi::cpu::SeparateDiagonalsSolver>(s, gpgpu::default_cpu_threads()); }
void interleaved_openmp(benchmark::State& s) { run<gpgpu::jacobi::cpu::InterleavedRowsSolver>(s, gpgpu::default_cpu_threads()); }

// 96² fits in L2, 1024² is the paper's size, 4096² (800 MB of traffic per iteration) is beyond
// every cache. Wall time: the solvers run on the host.
#define GPGPU_CH01_BENCH(fn) BENCHMARK(fn)->Arg(96)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime()
GPGPU_CH01_BENCH(separate);
GPGPU_CH01_BENCH(interleaved);
GPGPU_CH01_BENCH(separate_openmp);
GPGPU_CH01_BENCH(interleaved_openmp);

}  // namespace
