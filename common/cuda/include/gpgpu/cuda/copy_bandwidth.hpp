/// @file copy_bandwidth.hpp
/// @brief The bandwidth limit of the CUDA chapters: a device-to-device copy measured in the same
/// run, on the same GPU, counting the bytes read plus the bytes written (as every GB/s of the
/// tutorial counts them).
///
/// Two copies are timed with CUDA events, each the best of several repetitions over arrays many
/// times larger than the L2 cache: cudaMemcpyAsync(DeviceToDevice) and a plain kernel that copies
/// 16-byte vectors (y[i] = x[i] as float4). The faster of the two is the limit: what the memory
/// system delivers to a simple streaming access pattern. A Jacobi kernel that moves its minimum
/// bytes at this rate is as fast as this GPU can run it.
#pragma once
#include <cstddef>
#include <string>

namespace gpgpu::cuda {

struct CopyBandwidth {
  double memcpy_gbs = 0;       ///< cudaMemcpy device-to-device, 1e9 B/s read + written
  double kernel_gbs = 0;       ///< float4 copy kernel, 1e9 B/s read + written
  std::size_t bytes_per_array = 0;
  int repetitions = 0;
  [[nodiscard]] double best_gbs() const { return memcpy_gbs > kernel_gbs ? memcpy_gbs : kernel_gbs; }
  /// "device copy (kernel), 2 x 512.0 MiB".
  [[nodiscard]] std::string limit_name() const;
};

/// Measures on the current device. Uses two arrays of up to `max_bytes_per_array` (capped at a
/// quarter of the free memory); `repetitions` timed copies of each kind after one untimed copy.
CopyBandwidth measure_copy_bandwidth(std::size_t max_bytes_per_array = std::size_t{512} << 20, int repetitions = 10);

/// measure_copy_bandwidth() with its defaults, run once per process and remembered, so that a
/// benchmark's JSON context and every benchmark's time/floor quote the same measurement.
const CopyBandwidth& copy_bandwidth_of_this_run();

}  // namespace gpgpu::cuda
