/// @file bandwidth.hpp
/// @brief The device's copy bandwidth, measured in the same run as the kernels it judges.
///
/// Two ways to copy a buffer larger than any cache, each timed with profiling events, best of
/// several: the copy command clEnqueueCopyBuffer (the driver's own copy, what CUDA's
/// cudaMemcpyDeviceToDevice is on the CUDA side) and a plain copy kernel (kernels/opencl/copy.cl).
/// On a GPU the two agree; on a CPU device the command may be one memcpy on one core while the
/// kernel runs on every core, so the limit is the faster of the two. Bytes count read + written.
#pragma once
#include <cstddef>
#include <string>

#include "gpgpu/opencl/runtime.hpp"

namespace gpgpu::ocl {

struct CopyBandwidth {
  double command_gbs = 0;     ///< clEnqueueCopyBuffer, 1e9 B/s read + written
  double kernel_gbs = 0;      ///< copy kernel, 1e9 B/s read + written
  std::size_t bytes = 0;      ///< size of each of the two buffers
  [[nodiscard]] double best_gbs() const { return command_gbs > kernel_gbs ? command_gbs : kernel_gbs; }
  /// "buffer copy (clEnqueueCopyBuffer), 256.0 MiB": how the limit was measured.
  [[nodiscard]] std::string limit_name() const;
};

/// Copies a buffer of min(max_bytes, what the device allows) `repeats` times each way.
CopyBandwidth measure_copy_bandwidth(Runtime& runtime, std::size_t max_bytes = std::size_t{256} << 20,
                                     int repeats = 5);

}  // namespace gpgpu::ocl
