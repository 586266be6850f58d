/// @file memory.hpp
/// @brief Refusing sizes that cannot fit before allocating them, and printing byte counts.
#pragma once
#include <cstdint>
#include <string>

namespace gpgpu {

/// Memory the kernel reports as available for new allocations (MemAvailable), in bytes.
std::uint64_t available_host_memory();

/// Throws UsageError("<what> needs X of host memory, Y available") if `bytes` exceeds 90% of the
/// available memory.
void require_host_memory(double bytes, const std::string& what);

/// "1.5 GiB", "48.0 MiB", ...
std::string format_bytes(double bytes);

}  // namespace gpgpu
