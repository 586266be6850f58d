#include "gpu_context.hpp"

#include <iomanip>
#include <ostream>

namespace cuda_chapter {

GpuContext measure_limit(std::ostream& out, const gpgpu::cuda::DeviceInfo& device) {
  GpuContext g{device, gpgpu::cuda::measure_copy_bandwidth(), {}};
  g.limit = {g.copy.limit_name(), g.copy.best_gbs()};
  const auto flags = out.flags();
  out << "Limit:    device-to-device copy, read + written, best of " << g.copy.repetitions << ": cudaMemcpy "
      << std::fixed << std::setprecision(1) << g.copy.memcpy_gbs << " GB/s, float4 copy kernel " << g.copy.kernel_gbs
      << " GB/s -> limit " << g.limit.gbs << " GB/s (" << std::setprecision(0)
      << 100.0 * g.limit.gbs / device.nominal_bandwidth_gbs() << "% of the nominal "
      << device.nominal_bandwidth_gbs() << " GB/s)\n";
  out.flags(flags);
  return g;
}

nlohmann::json GpuContext::json() const {
  return {{"gpu", device},
          {"copy_bandwidth", {{"memcpy_gbs", copy.memcpy_gbs}, {"kernel_gbs", copy.kernel_gbs},
                              {"bytes_per_array", copy.bytes_per_array}, {"repetitions", copy.repetitions}}},
          {"limit", limit}};
}

}  // namespace cuda_chapter
