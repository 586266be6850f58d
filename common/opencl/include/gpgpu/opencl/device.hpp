/// @file device.hpp
/// @brief Finding an OpenCL device: the command-line options, the listing, the choice, and what
/// the chosen device is (printed at the start of every run and stored in the JSON).
///
/// Options (the OpenCL driver adds them to a chapter's command line, group "OpenCL device"):
///   --cl-platform P   platform index (see --list); default: search all platforms
///   --cl-device D     device index within the platform; default: the first that matches --cl-type
///   --cl-type T       gpu, cpu or all (default all: a GPU if there is one, else the first device)
///   --list            print every platform and device with its index, then exit 0
///
/// Outcomes: no OpenCL platform or no device of the asked type -> gpgpu::BackendUnavailable (one
/// line, exit 77: what the machine lacks, not what the user typed); an index that does not exist,
/// or a device whose type contradicts --cl-type -> gpgpu::UsageError (exit 2).
///
/// Test and benchmark executables have no device options; they read the same choice from the
/// environment variables GPGPU_CL_PLATFORM, GPGPU_CL_DEVICE and GPGPU_CL_TYPE.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "gpgpu/opencl/cl.hpp"

namespace gpgpu {
class Cli;
}

namespace gpgpu::ocl {

/// How to choose the device.
struct DeviceOptions {
  int platform = -1;         ///< --cl-platform, -1 = any
  int device = -1;           ///< --cl-device, -1 = the first matching one
  std::string type = "all";  ///< --cl-type: "gpu", "cpu" or "all"
  bool list = false;         ///< --list
};

/// The choice from GPGPU_CL_PLATFORM / GPGPU_CL_DEVICE / GPGPU_CL_TYPE (UsageError if malformed).
DeviceOptions device_options_from_environment();

/// A chosen device and where it was found.
struct Selection {
  cl::Platform platform;
  cl::Device device;
  int platform_index = 0;
  int device_index = 0;
};

/// Adds --cl-platform, --cl-device, --cl-type and --list to the group "OpenCL device" of `cli`
/// (the driver does; --list itself is acted on by the driver after parsing).
void add_device_options(Cli& cli, DeviceOptions& options);

/// Applies the options to the platforms and devices present (see the file comment for errors).
Selection select_device(const DeviceOptions& options);

/// Prints every platform and its devices with their indices and main limits (for --list).
/// Throws BackendUnavailable when there is no platform at all.
void list_devices(std::ostream& out);

/// What a run needs to know, and to report, about its device.
struct DeviceInfo {
  std::string platform_name, platform_vendor, platform_version;
  std::string name, vendor, type;      ///< type: "GPU", "CPU", "accelerator", ...
  std::string version, c_version, driver_version;
  int platform_index = 0, device_index = 0;
  unsigned compute_units = 0;
  unsigned max_clock_mhz = 0;
  std::uint64_t global_mem_bytes = 0;
  std::uint64_t max_alloc_bytes = 0;   ///< CL_DEVICE_MAX_MEM_ALLOC_SIZE: largest single buffer
  std::uint64_t global_cache_bytes = 0; ///< CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (a GPU's L2, a CPU's LLC)
  std::uint64_t local_mem_bytes = 0;
  bool local_mem_is_dedicated = false; ///< CL_LOCAL: on-chip; CL_GLOBAL: emulated in memory (CPUs)
  std::size_t max_work_group_size = 0;
  bool image_support = false;
  std::size_t image_max_buffer_size = 0;  ///< CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, in texels
  unsigned base_address_align_bits = 0;   ///< CL_DEVICE_MEM_BASE_ADDR_ALIGN
  bool is_cpu = false;
  bool is_gpu = false;

  /// "NVIDIA H100 80GB HBM3 (OpenCL)" for table rows.
  [[nodiscard]] std::string label() const;
};

DeviceInfo describe(const Selection& selection);

/// The platform/device/driver/limits lines that open every OpenCL run.
void print_device_info(std::ostream& out, const DeviceInfo& info);

void to_json(nlohmann::json& j, const DeviceInfo& info);

}  // namespace gpgpu::ocl
