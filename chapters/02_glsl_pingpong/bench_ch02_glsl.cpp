// Google Benchmark for chapter 02: every variant at 64², the paper's 1024² (fits in an H100's
// 50 MB L2) and 4096² (805 MB per iteration, far beyond it). The time of each benchmark
// iteration is the GPU time of kItersPerRun Jacobi iterations from a GL_TIME_ELAPSED query (the
// host clock after glFinish where the context has no usable query, e.g. llvmpipe), reported as
// manual time. JSON: --benchmark_out=FILE --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include "gpgpu/gl/context.hpp"
#include "gpgpu/gl/timer.hpp"
#include "gpgpu/jacobi/bench.hpp"
#include "gl_variants.hpp"

namespace {

constexpr int kItersPerRun = 20;

void jacobi(benchmark::State& state, const ch02::GlVariant& v) {
  const int n = static_cast<int>(state.range(0));
  // A fresh context for every call. Measured on an H100: with one context kept for the process, the
  // second and later solvers of a benchmark ran rgba_compute at half the rate of the chapter
  // (0.54-0.63 against 0.285 ms per iteration at 4096²), whose one solver per variant agrees with a
  // fresh context here.
  const gpgpu::gl::HeadlessContext context;
  const gpgpu::gl::ContextInfo& info = context.info();
  if (!ch02::supported(v, info)) {
    state.SkipWithError("needs OpenGL 4.3 compute shaders");
    return;
  }
  const gpgpu::jacobi::LinearSystem& sys = gpgpu::jacobi::bench::cached_bidomain_system(n, n);
  const auto solver = ch02::make_solver(v, sys, info);
  const std::vector<float> x0(static_cast<std::size_t>(sys.grid.nodes()), 1.0f);
  solver->reset(x0);
  solver->iterate(kItersPerRun, 0.8f);  // warm-up: the driver finishes compiling the shaders on first use
  for (auto _ : state) state.SetIterationTime(solver->iterate(kItersPerRun, 0.8f));  // GPU time (GpuTimer)
  gpgpu::jacobi::bench::set_counters(state, "jacobi9", sys.grid, kItersPerRun);
  state.SetLabel(std::to_string(n) + "x" + std::to_string(n) + ", " + std::to_string(kItersPerRun) +
                 " iterations, " + gpgpu::gl::GpuTimer::name(info) + ", " + info.renderer);
}

void luminance(benchmark::State& s) { jacobi(s, ch02::variant("luminance")); }
void rgba(benchmark::State& s) { jacobi(s, ch02::variant("rgba")); }
void rgba_compute(benchmark::State& s) { jacobi(s, ch02::variant("rgba_compute")); }

#define GPGPU_CH02_BENCH(fn) \
  BENCHMARK(fn)->Arg(64)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseManualTime()
GPGPU_CH02_BENCH(luminance);
GPGPU_CH02_BENCH(rgba);
GPGPU_CH02_BENCH(rgba_compute);

}  // namespace
