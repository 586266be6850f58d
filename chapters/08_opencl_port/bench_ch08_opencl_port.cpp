// Google Benchmark for chapter 08: every ported kernel at three sizes on the device the
// GPGPU_CL_* variables choose. The time of each batch of iterations comes from OpenCL profiling
// events (manual time: device time only, no launch or host overhead), the counters from the
// work table. JSON: --benchmark_out=FILE --benchmark_out_format=json
#include <memory>

#include <benchmark/benchmark.h>

#include "gpgpu/jacobi/bench.hpp"
#include "gpgpu/jacobi/opencl_kernels.hpp"
#include "gpgpu/jacobi/spectral.hpp"
#include "opencl_variants.hpp"

namespace {

constexpr int kItersPerBatch = 20;
constexpr std::size_t kWorkGroup = 64;

// One device for the whole executable (GPGPU_CL_* choose it); its runtime builds each program once.
gpgpu::ocl::Runtime& runtime() { return gpgpu::ocl::shared_runtime(); }

void run(benchmark::State& state, const ch08::Port& v) {
  const int n = static_cast<int>(state.range(0));
  const gpgpu::jacobi::Grid grid{n, n};
  if (const auto why = ch08::device_limitation(v, grid, runtime())) {
    state.SkipWithError(why->c_str());
    return;
  }
  const gpgpu::jacobi::LinearSystem& sys = gpgpu::jacobi::bench::cached_bidomain_system(grid.nx, grid.ny);
  const cl::Program& program = ch08::variant_program(runtime(), v, ch08::Division::correctly_rounded);
  ch08::OpenClJacobi solver(runtime(), program, v, sys, kWorkGroup);
  solver.reset(std::vector<float>(static_cast<std::size_t>(grid.nodes()), 1.0f));
  solver.iterate(kItersPerBatch, 0.8f);  // warm-up: first launches, caches
  for (auto _ : state)
    state.SetIterationTime(solver.iterate(kItersPerBatch, static_cast<float>(gpgpu::jacobi::kDefaultOmega)));
  gpgpu::jacobi::bench::set_counters(state, "jacobi9", grid, kItersPerBatch);
  state.counters["work_group"] = static_cast<double>(kWorkGroup);
  state.SetLabel(runtime().info().name + ", " + std::to_string(kItersPerBatch) + " iterations per batch");
}

// 256² fits in every cache, 1024² is the paper's size, 4096² (805 MB per iteration at 48 B per
// node) is far beyond any cache.
const bool kRegistered = [] {
  for (const ch08::Port& v : ch08::kPorts)
    benchmark::RegisterBenchmark(std::string(v.name).c_str(), [&v](benchmark::State& s) { run(s, v); })
        ->Arg(256)
        ->Arg(1024)
        ->Arg(4096)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
