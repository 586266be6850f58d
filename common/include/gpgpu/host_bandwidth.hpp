/// @file host_bandwidth.hpp
/// @brief The host's memory bandwidth, measured in the same run as the CPU solvers.
///
/// A STREAM-style copy b[i] = a[i] over arrays several times larger than the last-level cache,
/// first touched by the threads that copy them; the best of several repetitions, counting the
/// bytes read plus the bytes written (as the GPU chapters count their device-to-device copy).
#pragma once
#include <cstddef>

namespace gpgpu {

struct HostBandwidth {
  double gbs = 0;                ///< 1e9 B/s, read + written
  int threads = 1;
  std::size_t bytes_per_array = 0;
};

/// Measures the copy bandwidth with `threads` OpenMP threads (1 without OpenMP).
HostBandwidth measure_host_copy_bandwidth(int threads);

/// Size of the last-level cache in bytes (from sysfs; 32 MiB if unknown).
std::size_t last_level_cache_bytes();

}  // namespace gpgpu
