// The OpenCL backend's hook for the test and benchmark mains: skip (exit 77) when no OpenCL
// device matches GPGPU_CL_PLATFORM / GPGPU_CL_DEVICE / GPGPU_CL_TYPE. (The benchmark context is
// in harness_opencl_context.cpp, so test executables need not link Google Benchmark.)
#include <cstdlib>
#include <iostream>

#include "gpgpu/errors.hpp"
#include "gpgpu/opencl/device.hpp"
#include "harness.hpp"
#include "harness_opencl.hpp"

namespace gpgpu::harness {

ocl::Selection selection_from_environment_or_exit() {
  try {
    return ocl::select_device(ocl::device_options_from_environment());
  } catch (const UsageError& e) {  // a malformed GPGPU_CL_* variable: say so rather than skip
    std::cerr << "error: " << e.what() << '\n';
    std::exit(kExitUsage);
  }
}

std::optional<std::string> backend_missing() {
  try {
    const ocl::DeviceInfo info = ocl::describe(selection_from_environment_or_exit());
    std::cout << "OpenCL device: " << info.label() << ", " << info.driver_version << '\n';
    return std::nullopt;
  } catch (const BackendUnavailable& e) {
    return std::string(e.what());
  }
}

}  // namespace gpgpu::harness
