#include "gpgpu/cuda/device.hpp"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <ostream>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::cuda {

double DeviceInfo::nominal_bandwidth_gbs() const {
  return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9;
}

std::string DeviceInfo::arch() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

int device_count() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    throw BackendUnavailable("no CUDA device: " + error_text(status));
  }
  if (count == 0) throw BackendUnavailable("no CUDA device: the driver reports none");
  return count;
}

DeviceInfo open_device(int index) {
  Stopwatch clock;
  const int count = device_count();
  const double driver_init_s = clock.seconds();
  if (index < 0 || index >= count)
    throw UsageError("--device " + std::to_string(index) + ": this machine has " + std::to_string(count) +
                     " CUDA device(s), numbered 0 to " + std::to_string(count - 1));
  clock.restart();
  GPGPU_CUDA_CHECK(cudaSetDevice(index));
  GPGPU_CUDA_CHECK(cudaFree(nullptr));  // the runtime's idiom for "create the context now"
  const double context_s = clock.seconds();
  cudaDeviceProp p{};
  GPGPU_CUDA_CHECK(cudaGetDeviceProperties(&p, index));
  DeviceInfo d;
  d.index = index;
  d.driver_init_s = driver_init_s;
  d.context_s = context_s;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.global_memory_bytes = p.totalGlobalMem;
  d.memory_bus_bits = p.memoryBusWidth;
  d.texture_alignment = p.textureAlignment;
  d.shared_per_block_optin = p.sharedMemPerBlockOptin;
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.max_grid_y = p.maxGridSize[1];
  // The clocks left cudaDeviceProp in CUDA 13; the attributes remain.
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_clock_khz, cudaDevAttrClockRate, index));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, index));
  GPGPU_CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  GPGPU_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  const cudaChannelFormatDesc float_format = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  GPGPU_CUDA_CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&d.texture1d_linear_max_floats, &float_format, index));
  std::size_t total = 0;
  GPGPU_CUDA_CHECK(cudaMemGetInfo(&d.free_memory_bytes, &total));
  return d;
}

void print_device_info(std::ostream& out, const DeviceInfo& d) {
  const auto flags = out.flags();
  out << "GPU:      " << d.name << " (device " << d.index << ", compute capability " << d.cc_major << "."
      << d.cc_minor << ", " << d.sm_count << " SMs, " << format_bytes(static_cast<double>(d.l2_bytes)) << " L2, "
      << format_bytes(static_cast<double>(d.global_memory_bytes)) << " memory, "
      << format_bytes(static_cast<double>(d.free_memory_bytes)) << " free)\n"
      << "          driver " << version_text(d.driver_version) << ", runtime " << version_text(d.runtime_version)
      << ", SM clock " << d.sm_clock_khz / 1000 << " MHz, memory clock " << d.memory_clock_khz / 1000 << " MHz x "
      << d.memory_bus_bits << " bit (nominal " << std::fixed << std::setprecision(0) << d.nominal_bandwidth_gbs()
      << " GB/s)\n"
      << "          start-up: driver " << std::setprecision(3) << d.driver_init_s << " s, context " << d.context_s
      << " s (the process's first CUDA calls)\n"
      << "          texture alignment " << d.texture_alignment << " B, widest 1D linear float texture "
      << d.texture1d_linear_max_floats << " elements\n";
  out.flags(flags);
}

void to_json(nlohmann::json& j, const DeviceInfo& d) {
  j = {{"index", d.index},
       {"name", d.name},
       {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
       {"sm_count", d.sm_count},
       {"l2_bytes", d.l2_bytes},
       {"global_memory_bytes", d.global_memory_bytes},
       {"free_memory_bytes", d.free_memory_bytes},
       {"memory_bus_bits", d.memory_bus_bits},
       {"sm_clock_mhz", d.sm_clock_khz / 1000},
       {"memory_clock_mhz", d.memory_clock_khz / 1000},
       {"nominal_bandwidth_gbs", d.nominal_bandwidth_gbs()},
       {"driver_version", version_text(d.driver_version)},
       {"runtime_version", version_text(d.runtime_version)},
       {"texture_alignment_bytes", d.texture_alignment},
       {"texture1d_linear_max_floats", d.texture1d_linear_max_floats},
       {"startup", {{"driver_init_s", d.driver_init_s}, {"context_s", d.context_s},
                    {"total_s", d.driver_init_s + d.context_s}}}};
}

void require_device_memory(double bytes, const std::string& what) {
  std::size_t free = 0, total = 0;
  GPGPU_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  // A cap, so that a test can prove a size that does not fit is refused on any GPU (an 80 GB one
  // holds every mesh whose indices fit 32 bits): the host's GPGPU_HOST_MEMORY_LIMIT for the device.
  if (const char* limit = std::getenv("GPGPU_DEVICE_MEMORY_LIMIT"))
    free = std::min<std::size_t>(free, parse_byte_count(limit, "GPGPU_DEVICE_MEMORY_LIMIT"));
  if (bytes > 0.9 * static_cast<double>(free))
    throw UsageError(what + " needs " + format_bytes(bytes) + " of device memory, but only " +
                     format_bytes(static_cast<double>(free)) + " is free");
}

}  // namespace gpgpu::cuda
