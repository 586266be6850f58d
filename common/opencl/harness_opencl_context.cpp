// The OpenCL device in the Google Benchmark JSON context (benchmark executables only).
#include <benchmark/benchmark.h>

#include "gpgpu/opencl/device.hpp"
#include "harness.hpp"
#include "harness_opencl.hpp"

namespace gpgpu::harness {

void add_backend_context() {
  const ocl::DeviceInfo info = ocl::describe(selection_from_environment_or_exit());
  benchmark::AddCustomContext("opencl_platform", info.platform_name + " (" + info.platform_version + ")");
  benchmark::AddCustomContext("opencl_device", info.name + " [" + info.type + "]");
  benchmark::AddCustomContext("opencl_driver", info.driver_version);
  benchmark::AddCustomContext("opencl_c_version", info.c_version);
  benchmark::AddCustomContext("opencl_compute_units", std::to_string(info.compute_units));
}

}  // namespace gpgpu::harness
