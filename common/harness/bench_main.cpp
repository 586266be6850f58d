// main() of every Google Benchmark executable: records the machine in the JSON context (CPU,
// measured host copy bandwidth, compiler, revision, and the backend's device) before running.
#include <cstdio>
#include <string>

#include <benchmark/benchmark.h>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/sysinfo.hpp"
#include "harness.hpp"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if (const auto why = gpgpu::harness::backend_missing()) {
    std::printf("SKIPPED: %s\n", why->c_str());
    return 77;
  }
  const gpgpu::HostInfo host = gpgpu::host_info();
  benchmark::AddCustomContext("gpgpu_cpu_model", host.cpu_model);
  benchmark::AddCustomContext("gpgpu_compiler", host.compiler);
  benchmark::AddCustomContext("gpgpu_build", host.build_type);
  benchmark::AddCustomContext("gpgpu_git_revision", host.git_revision);
  // The host's copy bandwidth (1:1 mix, 256 MiB arrays: beyond any last-level cache), all threads.
  const gpgpu::StreamMix copy{1, 1, std::size_t{64} << 20, 4, host.openmp_threads};
  benchmark::AddCustomContext("gpgpu_host_copy_gbs", std::to_string(gpgpu::measure_host_stream_gbs(copy, host.openmp_threads)));
  benchmark::AddCustomContext("gpgpu_host_copy_threads", std::to_string(host.openmp_threads));
  gpgpu::harness::add_backend_context();
  // A filter that matches nothing runs nothing: a failure, however the executable is started.
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (ran == 0) {
    std::fprintf(stderr, "error: no benchmark matched --benchmark_filter\n");
    return 1;
  }
  return 0;
}
