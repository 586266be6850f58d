/// @file bench.hpp
/// @brief What every CUDA chapter's benchmark shares: a variant at a size, timed by its solver's
/// CUDA events (manual time) over runs of kItersPerRun iterations, with the rates of the work table
/// and the time over the floor, the floor being the minimum bytes at the limit this GPU reaches for
/// the same read:write mix and working set (measured once per mix in the process).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/jacobi/bench.hpp"
#include "gpgpu/jacobi/work.hpp"

namespace gpgpu::jacobi::cuda::bench {

/// Jacobi iterations between the two CUDA events of one benchmark iteration.
inline constexpr int kItersPerRun = 20;

/// Device 0, opened once per benchmark program (the benchmark main has made sure there is one).
inline gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cuda::open_session(0);
  return *s;
}

/// One benchmark: `spec` on the n x n bidomain system.
inline void run(benchmark::State& state, const gpgpu::jacobi::Variant& spec, int n) {
  gpgpu::Session& gpu = session();
  const gpgpu::jacobi::LinearSystem& sys = gpgpu::jacobi::bench::cached_bidomain_system(n, n);
  if (spec.check_fits) spec.check_fits(sys.grid, gpu);
  // The limit first, while the solver's buffers do not yet take device memory.
  gpgpu::StreamMix mix = gpgpu::jacobi::stream_mix(spec.work, sys.grid);
  mix.pipeline = spec.pipeline;
  const gpgpu::Limit limit = gpu.stream_limit(mix);
  const auto solver = spec.make(sys, gpu);
  solver->reset(std::vector<float>(static_cast<std::size_t>(sys.grid.nodes()), 1.0f));
  solver->iterate(kItersPerRun, 0.8f);  // warm-up: clocks, caches, first-launch costs
  for (auto _ : state) state.SetIterationTime(solver->iterate(kItersPerRun, 0.8f));
  gpgpu::jacobi::bench::set_counters(state, spec.work, sys.grid, kItersPerRun);
  using C = benchmark::Counter;
  const double floor = gpgpu::floor_seconds(gpgpu::jacobi::work(spec.work, sys.grid, kItersPerRun), limit.gbs);
  state.counters["limit_GB/s"] = limit.gbs;
  state.counters["time/floor"] = C(floor, C::kIsIterationInvariantRate | C::kInvert);
  state.SetLabel(solver->launch() + "; limit: " + limit.name + ", " + limit.working_set);
}

/// Registers the benchmark `name`: `factory`'s variant with `launch` on the n x n system, CUDA-event
/// time in milliseconds.
inline void add(const std::string& name, int n, gpgpu::jacobi::Variant (*factory)(const LaunchOptions&),
                const LaunchOptions& launch = {}) {
  benchmark::RegisterBenchmark(name.c_str(), [factory, launch, n](benchmark::State& s) {
    run(s, factory(launch), n);  // the spec reads the lambda's own copy of `launch`
  })->UseManualTime()->Unit(benchmark::kMillisecond);
}

/// Registers "<name>/<n>/" for n = 256 (the smoke test's size), 1024 (the paper's; 48 MB of minimum
/// traffic, inside an H100's 50 MB L2) and 4096 (805 MB, far beyond it).
inline void add_sizes(const std::string& name, gpgpu::jacobi::Variant (*factory)(const LaunchOptions&)) {
  for (int n : {256, 1024, 4096}) add(name + "/" + std::to_string(n) + "/", n, factory);
}

}  // namespace gpgpu::jacobi::cuda::bench
