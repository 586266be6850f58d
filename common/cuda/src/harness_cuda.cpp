// The CUDA backend's hooks for the generic test and benchmark mains: skip (exit 77) on a machine
// without a usable CUDA device; record the GPU, its clocks, its nominal bandwidth and its measured
// stream limits (the copy, 1:1, and the nine-diagonal Jacobi mix, 11:1, both beyond the L2) in the
// benchmark JSON context.
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

#ifdef GPGPU_HAVE_GOOGLE_BENCHMARK
#include <benchmark/benchmark.h>
#endif

#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "harness.hpp"

namespace gpgpu::harness {

std::optional<std::string> backend_missing() {
  try {
    (void)cuda::open_device(0);
    return std::nullopt;
  } catch (const BackendUnavailable& e) {  // a device that is there but fails is an error, not a skip
    return std::string(e.what());
  }
}

void add_backend_context() {
#ifdef GPGPU_HAVE_GOOGLE_BENCHMARK
  const auto session = cuda::open_session(0);
  const cuda::DeviceInfo& d = cuda::device_info(*session);
  benchmark::AddCustomContext("gpgpu_gpu", d.name);
  benchmark::AddCustomContext("gpgpu_gpu_arch", d.arch());
  benchmark::AddCustomContext("gpgpu_gpu_sms", std::to_string(d.sm_count));
  benchmark::AddCustomContext("gpgpu_gpu_l2_bytes", std::to_string(d.l2_bytes));
  benchmark::AddCustomContext("gpgpu_gpu_sm_clock_mhz", std::to_string(d.sm_clock_khz / 1000));
  benchmark::AddCustomContext("gpgpu_gpu_memory_clock_mhz", std::to_string(d.memory_clock_khz / 1000));
  benchmark::AddCustomContext("gpgpu_gpu_theoretical_gbs", std::to_string(d.nominal_bandwidth_gbs()));
  benchmark::AddCustomContext("gpgpu_cuda_driver", cuda::version_text(d.driver_version));
  benchmark::AddCustomContext("gpgpu_cuda_runtime", cuda::version_text(d.runtime_version));
  // Arrays of four times the L2 each (a DRAM working set on every GPU), fewer where the 12 arrays of
  // the 11:1 mix would take more than half of the free memory.
  const std::size_t elements =
      std::min(std::max<std::size_t>(d.l2_bytes, std::size_t{16} << 20), d.free_memory_bytes / (2 * 12 * 4));
  for (const auto& [reads, key] : {std::pair{1, "1_1"}, std::pair{11, "11_1"}}) {
    StreamMix mix;
    mix.reads = reads;
    mix.elements = elements;
    const Limit l = session->stream_limit(mix);
    benchmark::AddCustomContext(std::string("gpgpu_gpu_limit_") + key + "_gbs", std::to_string(l.gbs));
    benchmark::AddCustomContext(std::string("gpgpu_gpu_limit_") + key, l.name + ", " + l.working_set);
  }
#endif
}

}  // namespace gpgpu::harness
