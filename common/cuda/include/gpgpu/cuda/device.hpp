/// @file device.hpp
/// @brief Choosing the CUDA device, describing it at the start of every run, and refusing sizes
/// that do not fit into its memory before anything is allocated.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace gpgpu::cuda {

/// What a run runs on: the facts printed in the header and stored in the JSON.
struct DeviceInfo {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;      ///< compute capability
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  std::size_t global_memory_bytes = 0;
  std::size_t free_memory_bytes = 0;   ///< at the time the device was opened
  int memory_bus_bits = 0;
  int sm_clock_khz = 0;                ///< peak SM clock
  int memory_clock_khz = 0;            ///< peak memory clock
  int driver_version = 0;              ///< e.g. 13000 for 13.0
  int runtime_version = 0;
  std::size_t texture_alignment = 0;   ///< bytes; base addresses of texture objects
  std::size_t texture1d_linear_max_floats = 0;  ///< widest 1D linear texture of float elements
  std::size_t shared_per_block_optin = 0;
  int max_threads_per_sm = 0;
  int max_grid_y = 0;
  /// Host seconds of the process's first CUDA calls (paper 003, sec. 6.6, found CUDA's start-up
  /// negligible beside OpenCL's 1.3 s): cudaGetDeviceCount loads and initialises the driver;
  /// cudaSetDevice plus cudaFree(nullptr) create the device's primary context. Near zero when an
  /// earlier call of the same process already paid for them.
  double driver_init_s = 0;
  double context_s = 0;

  /// Nominal DRAM bandwidth from clock and bus width (2 transfers per clock, paper 003 sec. 5.2),
  /// 1e9 B/s: the theoretical figure printed beside the limits, which are measured (opener.hpp).
  [[nodiscard]] double nominal_bandwidth_gbs() const;
  /// "sm_90".
  [[nodiscard]] std::string arch() const;
};

/// Number of CUDA devices; throws BackendUnavailable("no CUDA device: ...") when there is none or
/// the driver is missing or too old.
int device_count();

/// Makes device `index` current (validated against device_count(): UsageError when out of range),
/// creates its context, and returns its description with the time those first calls took.
DeviceInfo open_device(int index);

/// Prints the device block of the run header (name, capability, SMs, L2, memory, versions, clocks).
void print_device_info(std::ostream& out, const DeviceInfo& info);

void to_json(nlohmann::json& j, const DeviceInfo& info);

/// Throws UsageError("<what> needs X of device memory, Y free") if `bytes` exceeds 90% of the
/// memory currently free on the current device, or of the environment variable
/// GPGPU_DEVICE_MEMORY_LIMIT ("64M", "2G", bytes) when that is set and smaller, so that a test can
/// prove a size that does not fit is refused on any GPU. Call before allocating.
void require_device_memory(double bytes, const std::string& what);

/// "13.0" from 13000.
std::string version_text(int cuda_version);

}  // namespace gpgpu::cuda
