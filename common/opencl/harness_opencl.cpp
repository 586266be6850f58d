// The OpenCL backend's hooks for the test and benchmark mains: skip (exit 77) when no OpenCL
// device matches GPGPU_CL_PLATFORM / GPGPU_CL_DEVICE / GPGPU_CL_TYPE, and record the device in a
// benchmark's JSON context.
#include <cstdlib>
#include <iostream>

#ifdef GPGPU_HARNESS_BENCHMARK
#include <benchmark/benchmark.h>
#endif

#include "gpgpu/errors.hpp"
#include "gpgpu/opencl/device.hpp"
#include "harness.hpp"

namespace gpgpu::harness {
namespace {

// The device chosen by GPGPU_CL_*; a malformed variable prints one line and exits with 2.
ocl::DeviceInfo device_from_environment_or_exit() {
  try {
    return ocl::describe(ocl::select_device(ocl::device_options_from_environment()));
  } catch (const UsageError& e) {  // a malformed GPGPU_CL_* variable: say so rather than skip
    std::cerr << "error: " << e.what() << '\n';
    std::exit(kExitUsage);
  }
}

}  // namespace

std::optional<std::string> backend_missing() {
  try {
    const ocl::DeviceInfo info = device_from_environment_or_exit();
    std::cout << "OpenCL device: " << info.label() << ", " << info.driver_version << '\n';
    return std::nullopt;
  } catch (const BackendUnavailable& e) {
    return std::string(e.what());
  }
}

void add_backend_context() {
#ifdef GPGPU_HARNESS_BENCHMARK
  const ocl::DeviceInfo info = device_from_environment_or_exit();
  benchmark::AddCustomContext("opencl_platform", info.platform_name + " (" + info.platform_version + ")");
  benchmark::AddCustomContext("opencl_device", info.name + " [" + info.type + "]");
  benchmark::AddCustomContext("opencl_driver", info.driver_version);
  benchmark::AddCustomContext("opencl_c_version", info.c_version);
  benchmark::AddCustomContext("opencl_compute_units", std::to_string(info.compute_units));
#endif
}

}  // namespace gpgpu::harness
