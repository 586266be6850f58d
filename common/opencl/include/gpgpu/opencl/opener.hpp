/// @file opener.hpp
/// @brief OpenCL as a backend of the core (gpgpu/backend.hpp): the driver adds the device options
/// (device.hpp; --list prints every platform and device and ends the program, exit 0, right after
/// parsing) and opens a session, which owns the chosen device's Runtime (context, profiling queue,
/// start-up times) and measures its stream limits with a read:write-matched kernel
/// (common/opencl/kernels/stream.cl).
#pragma once
#include <memory>

#include "gpgpu/backend.hpp"
#include "gpgpu/opencl/device.hpp"
#include "gpgpu/opencl/runtime.hpp"

namespace gpgpu::ocl {

/// The OpenCL driver (gpgpu::Backend::opencl).
std::unique_ptr<BackendOpener> opener();

/// Opens the device `options` choose (BackendUnavailable without one, UsageError for an index
/// that does not exist): what the driver's open() does with the command line's choice.
std::unique_ptr<Session> open_session(const DeviceOptions& options);

/// The Runtime of an OpenCL session (for a variant's make()); std::logic_error for another backend's.
Runtime& runtime_of(Session& session);

}  // namespace gpgpu::ocl
