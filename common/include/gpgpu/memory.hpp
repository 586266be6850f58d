/// @file memory.hpp
/// @brief Refusing sizes that cannot fit before allocating them, and printing byte counts.
#pragma once
#include <cstdint>
#include <string>

namespace gpgpu {

/// Memory the kernel reports as available for new allocations (MemAvailable), in bytes; at most
/// the value of the environment variable GPGPU_HOST_MEMORY_LIMIT when it is set ("64M", "2G", a
/// number of bytes), so a test can prove that a size that does not fit is refused on any host.
std::uint64_t available_host_memory();

/// Throws UsageError("<what> needs X of host memory, Y available") if `bytes` exceeds 90% of the
/// available memory.
void require_host_memory(double bytes, const std::string& what);

/// Parses "123", "64K", "64M", "2G" (binary multiples) for the memory-limit variables; throws
/// UsageError naming `variable` for anything else, and for a count beyond 2^64 bytes.
std::uint64_t parse_byte_count(const std::string& text, const std::string& variable);

/// "1.5 GiB", "48.0 MiB", ...
std::string format_bytes(double bytes);

}  // namespace gpgpu
