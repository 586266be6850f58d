/// @file cpu_backend.hpp
/// @brief The CPU as a backend: always present, opened like the others, with a STREAM-style limit
/// for any read:write mix measured on the host in the same run.
///
/// Option: --threads N (at most max_cpu_threads()), the OpenMP threads of the parallel CPU variants (default: all), or a
/// comma-separated list (--threads 1,2,4) for a chapter that runs its parallel variants once per
/// count (chapter 01). Serial variants ask for a limit with StreamMix::threads = 1.
#pragma once
#include <memory>
#include <vector>

#include "gpgpu/backend.hpp"
#include "gpgpu/cpu_threads.hpp"

namespace gpgpu {

/// The CPU opener (gpgpu::Backend::cpu).
std::unique_ptr<BackendOpener> cpu_opener();

/// The --threads of a CPU session (the thread count of the parallel CPU variants; the largest
/// when --threads is a list).
[[nodiscard]] int cpu_threads(const Session& cpu_session);

/// Every count of --threads, in the order given (one entry unless --threads is a list).
[[nodiscard]] std::vector<int> cpu_thread_counts(const Session& cpu_session);

/// Measures the host bandwidth for `mix` with `threads` threads: every array first touched by the
/// threads that stream it; the best of several passes; bytes counted as the arrays' sizes (the
/// extra read a cache does before it writes a line, write-allocate, is paid here as in the
/// variants, and counted in neither).
double measure_host_stream_gbs(const StreamMix& mix, int threads);

/// Size of the last-level cache in bytes (from sysfs; 32 MiB if unknown).
[[nodiscard]] std::size_t last_level_cache_bytes();

}  // namespace gpgpu
