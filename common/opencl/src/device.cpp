// Platform and device discovery, the choice made by --cl-platform/--cl-device/--cl-type, and the
// description of the chosen device.
#include "gpgpu/opencl/device.hpp"

#include <cstdlib>
#include <ostream>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "gpgpu/cli.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/memory.hpp"

namespace gpgpu::ocl {
namespace {

constexpr int kMaxIndex = 255;

// Every platform the ICD loader knows. No platform at all is not an error of the call but the
// state of the machine (BackendUnavailable): the loader reports it as CL_PLATFORM_NOT_FOUND_KHR (-1001).
std::vector<cl::Platform> discover_platforms() {
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& e) {
    if (e.err() != -1001) throw_failed_call("cl::Platform::get(&platforms)", __FILE__, __LINE__, e);
  }
  if (platforms.empty())
    throw BackendUnavailable(
        "no OpenCL platform: the ICD loader found no driver (install one, e.g. pocl-opencl-icd for the CPU)");
  return platforms;
}

std::vector<cl::Device> devices_of(const cl::Platform& platform) {
  std::vector<cl::Device> devices;
  GPGPU_CL(platform.getDevices(CL_DEVICE_TYPE_ALL, &devices));  // none -> empty (CL_DEVICE_NOT_FOUND)
  return devices;
}

std::string type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

bool matches(const cl::Device& device, const std::string& type) {
  const cl_device_type t = GPGPU_CL(device.getInfo<CL_DEVICE_TYPE>());
  if (type == "gpu") return (t & CL_DEVICE_TYPE_GPU) != 0;
  if (type == "cpu") return (t & CL_DEVICE_TYPE_CPU) != 0;
  return true;
}

// "Portable Computing Language: 1 CPU; NVIDIA CUDA: 1 GPU" for messages about what is missing.
std::string inventory(const std::vector<cl::Platform>& platforms) {
  std::string text;
  for (const cl::Platform& p : platforms) {
    if (!text.empty()) text += "; ";
    text += GPGPU_CL(p.getInfo<CL_PLATFORM_NAME>()) + ":";
    const auto devices = devices_of(p);
    if (devices.empty()) text += " no devices";
    for (const cl::Device& d : devices) text += " " + type_name(GPGPU_CL(d.getInfo<CL_DEVICE_TYPE>()));
  }
  return text;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();  // some drivers pad
  return s;
}

int env_int(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return -1;
  std::string text = value;
  const std::string problem = integer_in_range(0, kMaxIndex)(text);
  if (!problem.empty()) throw UsageError(std::string(name) + ": " + problem);
  return std::atoi(value);
}

}  // namespace

void add_device_options(Cli& cli, DeviceOptions& options) {
  CLI::Option_group& app = cli.group("OpenCL device");
  app.add_option("--cl-platform", options.platform, "OpenCL platform index (see --list); default: any")
      ->check(integer_in_range(0, kMaxIndex));
  app.add_option("--cl-device", options.device,
                 "OpenCL device index within the platform (see --list); default: the first of --cl-type")
      ->check(integer_in_range(0, kMaxIndex));
  app.add_option("--cl-type", options.type, "device type: gpu, cpu, or all (all prefers a GPU)")
      ->check(CLI::IsMember({"gpu", "cpu", "all"}))
      ->capture_default_str();
  app.add_flag("--list", options.list, "list the OpenCL platforms and devices with their indices, then exit");
}

DeviceOptions device_options_from_environment() {
  DeviceOptions options;
  options.platform = env_int("GPGPU_CL_PLATFORM");
  options.device = env_int("GPGPU_CL_DEVICE");
  if (const char* type = std::getenv("GPGPU_CL_TYPE"); type != nullptr && *type != '\0') {
    options.type = type;
    if (options.type != "gpu" && options.type != "cpu" && options.type != "all")
      throw UsageError("GPGPU_CL_TYPE must be gpu, cpu or all, got '" + options.type + "'");
  }
  return options;
}

Selection select_device(const DeviceOptions& options) {
  const std::vector<cl::Platform> platforms = discover_platforms();
  const int platform_count = static_cast<int>(platforms.size());
  if (options.platform >= platform_count)
    throw UsageError("--cl-platform " + std::to_string(options.platform) + ": there are " +
                     std::to_string(platform_count) + " platform(s), numbered from 0 (see --list)");

  if (options.device >= 0) {  // an explicit device; without --cl-platform it is on platform 0
    const int p = options.platform >= 0 ? options.platform : 0;
    const auto devices = devices_of(platforms[static_cast<std::size_t>(p)]);
    const int device_count = static_cast<int>(devices.size());
    if (options.device >= device_count)
      throw UsageError("--cl-device " + std::to_string(options.device) + ": platform " + std::to_string(p) +
                       " has " + std::to_string(device_count) + " device(s), numbered from 0 (see --list)");
    const cl::Device& d = devices[static_cast<std::size_t>(options.device)];
    if (!matches(d, options.type))
      throw UsageError("--cl-device " + std::to_string(options.device) + " of platform " + std::to_string(p) +
                       " is a " + type_name(GPGPU_CL(d.getInfo<CL_DEVICE_TYPE>())) + ", not --cl-type " +
                       options.type);
    return {platforms[static_cast<std::size_t>(p)], d, p, options.device};
  }

  // The first device of the wanted type, platform by platform; "all" takes a GPU if there is one.
  const std::vector<std::string> passes = options.type == "all" ? std::vector<std::string>{"gpu", "all"}
                                                                : std::vector<std::string>{options.type};
  for (const std::string& type : passes) {
    for (int p = 0; p < platform_count; ++p) {
      if (options.platform >= 0 && p != options.platform) continue;
      const auto devices = devices_of(platforms[static_cast<std::size_t>(p)]);
      for (std::size_t d = 0; d < devices.size(); ++d)
        if (matches(devices[d], type)) return {platforms[static_cast<std::size_t>(p)], devices[d], p, static_cast<int>(d)};
    }
  }
  const std::string what = options.type == "all" ? "device" : (options.type == "gpu" ? "GPU" : "CPU") + std::string(" device");
  const std::string where = options.platform >= 0 ? " on platform " + std::to_string(options.platform) : "";
  throw BackendUnavailable("no OpenCL " + what + where + " (found " + inventory(platforms) + ")");
}

DeviceInfo describe(const Selection& s) {
  DeviceInfo i;
  const cl::Platform& p = s.platform;
  const cl::Device& d = s.device;
  i.platform_index = s.platform_index;
  i.device_index = s.device_index;
  i.platform_name = trimmed(GPGPU_CL(p.getInfo<CL_PLATFORM_NAME>()));
  i.platform_vendor = trimmed(GPGPU_CL(p.getInfo<CL_PLATFORM_VENDOR>()));
  i.platform_version = trimmed(GPGPU_CL(p.getInfo<CL_PLATFORM_VERSION>()));
  i.name = trimmed(GPGPU_CL(d.getInfo<CL_DEVICE_NAME>()));
  i.vendor = trimmed(GPGPU_CL(d.getInfo<CL_DEVICE_VENDOR>()));
  const cl_device_type type = GPGPU_CL(d.getInfo<CL_DEVICE_TYPE>());
  i.type = type_name(type);
  i.is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
  i.is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  i.version = trimmed(GPGPU_CL(d.getInfo<CL_DEVICE_VERSION>()));
  i.c_version = trimmed(GPGPU_CL(d.getInfo<CL_DEVICE_OPENCL_C_VERSION>()));
  i.driver_version = trimmed(GPGPU_CL(d.getInfo<CL_DRIVER_VERSION>()));
  i.compute_units = GPGPU_CL(d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
  i.max_clock_mhz = GPGPU_CL(d.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>());
  i.global_mem_bytes = GPGPU_CL(d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>());
  i.max_alloc_bytes = GPGPU_CL(d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>());
  i.global_cache_bytes = GPGPU_CL(d.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>());
  i.local_mem_bytes = GPGPU_CL(d.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>());
  i.local_mem_is_dedicated = GPGPU_CL(d.getInfo<CL_DEVICE_LOCAL_MEM_TYPE>()) == CL_LOCAL;
  i.max_work_group_size = GPGPU_CL(d.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>());
  i.image_support = GPGPU_CL(d.getInfo<CL_DEVICE_IMAGE_SUPPORT>()) == CL_TRUE;
  i.image_max_buffer_size = i.image_support ? GPGPU_CL(d.getInfo<CL_DEVICE_IMAGE_MAX_BUFFER_SIZE>()) : 0;
  i.base_address_align_bits = GPGPU_CL(d.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>());
  return i;
}

std::string DeviceInfo::label() const { return name + " (OpenCL)"; }

namespace {

void print_platform_line(std::ostream& out, const DeviceInfo& i) {
  out << "Platform: [" << i.platform_index << "] " << i.platform_name << " (" << i.platform_vendor << "), "
      << i.platform_version << "\n";
}

void print_device_lines(std::ostream& out, const DeviceInfo& i) {
  out << "Device:   [" << i.platform_index << "." << i.device_index << "] " << i.type << " " << i.name << ", "
      << i.compute_units << " compute units at " << i.max_clock_mhz << " MHz, " << i.version << ", " << i.c_version
      << "\n"
      << "Driver:   " << i.driver_version << "; memory " << format_bytes(static_cast<double>(i.global_mem_bytes))
      << " (largest buffer " << format_bytes(static_cast<double>(i.max_alloc_bytes)) << "), cache "
      << format_bytes(static_cast<double>(i.global_cache_bytes)) << ", local memory "
      << format_bytes(static_cast<double>(i.local_mem_bytes))
      << (i.local_mem_is_dedicated ? " on chip" : " (emulated in global memory)") << ", work-groups up to "
      << i.max_work_group_size << ", images "
      << (i.image_support ? "yes (1D buffer images up to " + std::to_string(i.image_max_buffer_size) + " texels)"
                          : "no")
      << "\n";
}

}  // namespace

void print_device_info(std::ostream& out, const DeviceInfo& i) {
  print_platform_line(out, i);
  print_device_lines(out, i);
}

void list_devices(std::ostream& out) {
  const std::vector<cl::Platform> platforms = discover_platforms();
  out << "OpenCL platforms and devices (choose with --cl-platform P --cl-device D, or --cl-type gpu|cpu):\n";
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    const auto devices = devices_of(platforms[p]);
    if (devices.empty()) {
      out << "Platform: [" << p << "] " << trimmed(GPGPU_CL(platforms[p].getInfo<CL_PLATFORM_NAME>()))
          << ": no devices\n";
      continue;
    }
    for (std::size_t d = 0; d < devices.size(); ++d) {
      const DeviceInfo info = describe({platforms[p], devices[d], static_cast<int>(p), static_cast<int>(d)});
      if (d == 0) print_platform_line(out, info);
      print_device_lines(out, info);
    }
  }
}

void to_json(nlohmann::json& j, const DeviceInfo& i) {
  j = {{"api", "OpenCL"},
       {"platform_index", i.platform_index},
       {"device_index", i.device_index},
       {"platform", i.platform_name},
       {"platform_vendor", i.platform_vendor},
       {"platform_version", i.platform_version},
       {"name", i.name},
       {"vendor", i.vendor},
       {"type", i.type},
       {"version", i.version},
       {"opencl_c_version", i.c_version},
       {"driver_version", i.driver_version},
       {"compute_units", i.compute_units},
       {"max_clock_mhz", i.max_clock_mhz},
       {"global_mem_bytes", i.global_mem_bytes},
       {"max_alloc_bytes", i.max_alloc_bytes},
       {"global_cache_bytes", i.global_cache_bytes},
       {"local_mem_bytes", i.local_mem_bytes},
       {"local_mem_dedicated", i.local_mem_is_dedicated},
       {"max_work_group_size", i.max_work_group_size},
       {"image_support", i.image_support},
       {"image_max_buffer_texels", i.image_max_buffer_size}};
}

}  // namespace gpgpu::ocl
