// The CUDA backend's hooks for the generic test and benchmark mains: skip (exit 77) on a machine
// without a usable CUDA device; record the GPU, its clocks and its measured copy bandwidth in the
// benchmark JSON context.
#include <string>

#ifdef GPGPU_HAVE_GOOGLE_BENCHMARK
#include <benchmark/benchmark.h>
#endif

#include "gpgpu/cuda/copy_bandwidth.hpp"
#include "gpgpu/cuda/device.hpp"
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
  const cuda::DeviceInfo d = cuda::open_device(0);
  benchmark::AddCustomContext("gpgpu_gpu", d.name);
  benchmark::AddCustomContext("gpgpu_gpu_arch", d.arch());
  benchmark::AddCustomContext("gpgpu_gpu_sms", std::to_string(d.sm_count));
  benchmark::AddCustomContext("gpgpu_gpu_l2_bytes", std::to_string(d.l2_bytes));
  benchmark::AddCustomContext("gpgpu_gpu_sm_clock_mhz", std::to_string(d.sm_clock_khz / 1000));
  benchmark::AddCustomContext("gpgpu_gpu_memory_clock_mhz", std::to_string(d.memory_clock_khz / 1000));
  benchmark::AddCustomContext("gpgpu_cuda_driver", cuda::version_text(d.driver_version));
  benchmark::AddCustomContext("gpgpu_cuda_runtime", cuda::version_text(d.runtime_version));
  const cuda::CopyBandwidth& bw = cuda::copy_bandwidth_of_this_run();
  benchmark::AddCustomContext("gpgpu_gpu_copy_memcpy_gbs", std::to_string(bw.memcpy_gbs));
  benchmark::AddCustomContext("gpgpu_gpu_copy_kernel_gbs", std::to_string(bw.kernel_gbs));
  benchmark::AddCustomContext("gpgpu_gpu_copy_limit_gbs", std::to_string(bw.best_gbs()));
#endif
}

}  // namespace gpgpu::harness
