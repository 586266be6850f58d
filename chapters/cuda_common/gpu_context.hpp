// What both chapter modes (result table, width sweep) establish first: the GPU and its limit.
#pragma once
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "gpgpu/cuda/copy_bandwidth.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/report.hpp"

namespace cuda_chapter {

struct GpuContext {
  gpgpu::cuda::DeviceInfo device;
  gpgpu::cuda::CopyBandwidth copy;
  gpgpu::Limit limit;  ///< the faster copy: the bandwidth every variant is measured against
  [[nodiscard]] nlohmann::json json() const;
};

/// Measures the copy bandwidth on the (already opened) device and prints the "Limit:" line.
GpuContext measure_limit(std::ostream& out, const gpgpu::cuda::DeviceInfo& device);

}  // namespace cuda_chapter
