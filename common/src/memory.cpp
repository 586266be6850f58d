#include "gpgpu/memory.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>

#include <unistd.h>

#include "gpgpu/errors.hpp"

namespace gpgpu {

std::uint64_t parse_byte_count(const std::string& text, const std::string& variable) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  std::uint64_t scale = 1;
  if (ec == std::errc() && ptr + 1 == end) {
    switch (*ptr) {
      case 'K': scale = 1ull << 10; break;
      case 'M': scale = 1ull << 20; break;
      case 'G': scale = 1ull << 30; break;
      default: scale = 0;
    }
  } else if (ec != std::errc() || ptr != end) {
    scale = 0;
  }
  if (scale == 0 || text.empty())
    throw UsageError(variable + "='" + text + "': expected a number of bytes, optionally with K, M or G");
  if (value > std::numeric_limits<std::uint64_t>::max() / scale)  // 17179869184G would wrap around to 0
    throw UsageError(variable + "='" + text + "': more than 2^64 bytes");
  return value * scale;
}

std::uint64_t available_host_memory() {
  std::uint64_t available = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") available = kib * 1024;
  if (available == 0)  // no /proc (not Linux): the physical pages the C library reports
    available = static_cast<std::uint64_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  if (const char* limit = std::getenv("GPGPU_HOST_MEMORY_LIMIT"))
    available = std::min(available, parse_byte_count(limit, "GPGPU_HOST_MEMORY_LIMIT"));
  return available;
}

void require_host_memory(double bytes, const std::string& what) {
  const double available = static_cast<double>(available_host_memory());
  if (bytes > 0.9 * available)
    throw UsageError(what + " needs " + format_bytes(bytes) + " of host memory, but only " + format_bytes(available) +
                     " is available");
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 5) {
    bytes /= 1024.0;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return buf;
}

}  // namespace gpgpu
