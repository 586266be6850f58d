// Google Benchmark for every CUDA Jacobi variant: 256² (smoke), 1024² (the paper's size; 48 MB, it
// stays in the H100's 50 MB L2) and 4096² (805 MB per iteration, far beyond it), plus the rows per
// thread of kernels 08 and 09 at 4096². Each benchmark iteration runs 20 Jacobi iterations between
// CUDA events (manual time); the counters give GB/s both ways, GFLOP/s and the time over the floor
// (minimum bytes at the copy bandwidth measured once per process).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include <string>

#include <benchmark/benchmark.h>

#include "gpgpu/cuda/copy_bandwidth.hpp"
#include "gpgpu/cuda_jacobi.hpp"
#include "gpgpu/testing/bench_support.hpp"
#include "gpgpu/work_counts.hpp"

namespace {

namespace cj = gpgpu::cuda_jacobi;

constexpr int kItersPerRun = 20;

void run(benchmark::State& state, const std::string& variant, int n, cj::LaunchConfig launch) {
  // Device 0 is open: the benchmark main did it.
  const gpgpu::LinearSystem& sys = gpgpu::testing::cached_bidomain_system(n, n);
  auto solver = cj::make_solver(variant, sys, launch);
  solver->upload(std::vector<float>(static_cast<std::size_t>(sys.grid.nodes()), 1.0f));
  solver->run(kItersPerRun, 0.8f);  // warm-up: clocks, caches, first-launch costs
  for (auto _ : state) state.SetIterationTime(solver->run(kItersPerRun, 0.8f));
  const gpgpu::WorkCounts& w = gpgpu::work_counts(solver->info().work);
  gpgpu::testing::set_jacobi_counters(state, w, sys.grid.nodes(), kItersPerRun);
  const double limit = gpgpu::cuda::copy_bandwidth_of_this_run().best_gbs();
  const double floor_s = gpgpu::floor_seconds_per_iter(w, static_cast<double>(sys.grid.nodes()), limit);
  using C = benchmark::Counter;
  state.counters["copy_GB/s"] = limit;
  state.counters["time/floor"] = C(kItersPerRun * floor_s, C::kIsIterationInvariantRate | C::kInvert);
  state.SetLabel(solver->launch_text());
}

// Registered before main() runs; the sizes of every variant, then the rows-per-thread sweep.
const bool registered = [] {
  for (const cj::VariantInfo& v : cj::variants()) {
    for (int n : {256, 1024, 4096}) {
      const std::string name = std::string(v.name) + "/" + std::to_string(n) + "/";
      benchmark::RegisterBenchmark(name.c_str(), [variant = std::string(v.name), n](benchmark::State& s) {
        run(s, variant, n, {});
      })->UseManualTime()->Unit(benchmark::kMillisecond);
    }
  }
  for (const char* variant : {"multirow", "symmetric"})
    for (int rows : {1, 2, 4, 8, 16, 32})
      for (int block : {64, 128, 256}) {
        const std::string name = std::string(variant) + "_tune/4096/rows:" + std::to_string(rows) + "/block:" +
                                 std::to_string(block);
        benchmark::RegisterBenchmark(name.c_str(), [variant = std::string(variant), rows, block](benchmark::State& s) {
          run(s, variant, 4096, {block, 1, rows});
        })->UseManualTime()->Unit(benchmark::kMillisecond);
      }
  return true;
}();

}  // namespace
