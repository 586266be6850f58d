#include "gpgpu/memory.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "gpgpu/errors.hpp"

namespace gpgpu {

std::uint64_t available_host_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  // No /proc (not Linux): fall back to the physical pages the C library reports.
  return static_cast<std::uint64_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

void require_host_memory(double bytes, const std::string& what) {
  const double available = static_cast<double>(available_host_memory());
  if (bytes > 0.9 * available)
    throw UsageError(what + " needs " + format_bytes(bytes) + " of host memory, but only " +
                     format_bytes(available) + " is available");
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
