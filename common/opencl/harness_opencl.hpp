/// @file harness_opencl.hpp
/// @brief Shared by the two halves of the OpenCL harness library.
#pragma once
#include "gpgpu/opencl/device.hpp"

namespace gpgpu::harness {

/// The device chosen by GPGPU_CL_*; a malformed variable prints one line and exits with 2.
ocl::Selection selection_from_environment_or_exit();

}  // namespace gpgpu::harness
