/// @file bench.hpp
/// @brief What every Jacobi benchmark shares: the assembled systems, kept across the calls Google
/// Benchmark makes of one benchmark, and the rates it reports, all from the one work table.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <utility>

#include <benchmark/benchmark.h>

#include "gpgpu/jacobi/bidomain.hpp"
#include "gpgpu/jacobi/work.hpp"

namespace gpgpu::jacobi::bench {

/// The bidomain system of an nx x ny grid, assembled on first use and kept for the process:
/// Google Benchmark calls a benchmark several times, and assembling 4096² takes seconds.
inline const LinearSystem& cached_bidomain_system(int nx, int ny) {
  static std::map<std::pair<int, int>, std::unique_ptr<LinearSystem>> cache;
  auto& s = cache[{nx, ny}];
  if (!s) s = std::make_unique<LinearSystem>(assemble_bidomain({nx, ny}));
  return *s;
}

/// Sets ms/iter, GB/s_min, GB/s_all and GFLOP/s (decimal units) for a benchmark whose every
/// iteration runs `iters_per_run` Jacobi iterations of `kernel` on `grid`. Google Benchmark divides
/// by the benchmark's time: the manual time where the benchmark sets it (GPU time), else real time.
inline void set_counters(benchmark::State& state, std::string_view kernel, const Grid& grid, int iters_per_run) {
  using C = benchmark::Counter;
  const Work w = work(kernel, grid, iters_per_run);  // per benchmark iteration
  state.counters["GB/s_min"] = C(w.bytes_min / 1e9, C::kIsIterationInvariantRate);
  state.counters["GB/s_all"] = C(w.bytes_all / 1e9, C::kIsIterationInvariantRate);
  state.counters["GFLOP/s"] = C(w.flops / 1e9, C::kIsIterationInvariantRate);
  // time / (iterations x iters_per_run / 1000): milliseconds per Jacobi iteration.
  state.counters["ms/iter"] = C(iters_per_run / 1e3, C::kIsIterationInvariantRate | C::kInvert);
}

}  // namespace gpgpu::jacobi::bench
