/// @file opener.hpp
/// @brief CUDA as a backend of the core (gpgpu/backend.hpp): the option --device N, the device
/// block of the run header, and the bandwidth limit for any read:write mix (stream_limit.hpp),
/// measured on the GPU in the same run, once per mix.
#pragma once
#include <memory>

#include "gpgpu/backend.hpp"
#include "gpgpu/cuda/device.hpp"

namespace gpgpu::cuda {

/// The CUDA driver (gpgpu::Backend::cuda): adds --device N (group "CUDA device") and opens that
/// device. No device or no driver: BackendUnavailable (exit 77); an index the machine does not
/// have: UsageError (exit 2).
std::unique_ptr<BackendOpener> opener();

/// Opens device `index` as a session without a command line (tests, benchmarks).
std::unique_ptr<Session> open_session(int index);

/// The device of an open CUDA session; throws std::invalid_argument for another backend's session.
const DeviceInfo& device_info(const Session& cuda_session);

}  // namespace gpgpu::cuda
