/// @file driver.hpp
/// @brief OpenCL as a backend of the core (gpgpu/backend.hpp): the driver that adds the device
/// options and opens a session, and the session that owns the device's Runtime.
///
/// Options (group "OpenCL device"): --cl-platform P, --cl-device D, --cl-type gpu|cpu|all, and
/// --list, which prints every platform and device and ends the program (exit 0) right after
/// parsing. A session is the Runtime (context, profiling queue, start-up times) of the chosen
/// device; its stream limits are measured by the stream kernel (gpgpu/opencl/stream_limit.hpp).
#pragma once
#include <memory>

#include "gpgpu/backend.hpp"
#include "gpgpu/opencl/device.hpp"
#include "gpgpu/opencl/runtime.hpp"
#include "gpgpu/opencl/stream_limit.hpp"

namespace gpgpu::ocl {

/// The OpenCL driver (gpgpu::Backend::opencl).
std::unique_ptr<Driver> driver();

/// Opens the device `options` choose (BackendUnavailable without one, UsageError for an index
/// that does not exist): what the driver's open() does with the command line's choice.
std::unique_ptr<Session> open_session(const DeviceOptions& options);

/// The Runtime of an OpenCL session (for a variant's make()); std::logic_error for another backend's.
Runtime& runtime_of(Session& session);

/// The stream limits of an OpenCL session, with the builds of their kernels.
const StreamLimits& stream_limits_of(const Session& session);

}  // namespace gpgpu::ocl
