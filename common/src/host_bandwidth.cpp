#include "gpgpu/host_bandwidth.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <string>

#include "gpgpu/timing.hpp"

namespace gpgpu {

std::size_t last_level_cache_bytes() {
  std::size_t best = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    std::string text;
    if (!(f >> text)) continue;
    std::size_t value = std::stoull(text);
    if (text.back() == 'K') value *= 1024;
    if (text.back() == 'M') value *= 1024 * 1024;
    best = std::max(best, value);
  }
  return best > 0 ? best : std::size_t{32} << 20;
}

HostBandwidth measure_host_copy_bandwidth(int threads) {
  threads = std::max(threads, 1);
  // Four times the last-level cache (at least 256 MiB, at most 1 GiB) per array, so the copy
  // streams from memory; ~0.5-2 GB in all.
  const std::size_t bytes = std::clamp(4 * last_level_cache_bytes(), std::size_t{256} << 20, std::size_t{1} << 30);
  const std::size_t n = bytes / sizeof(float);
  const std::unique_ptr<float[]> a(new float[n]);
  const std::unique_ptr<float[]> b(new float[n]);
  const auto count = static_cast<long long>(n);
  float* pa = a.get();
  float* pb = b.get();
  // First touch by the threads that will copy, so pages land next to them (NUMA).
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long long i = 0; i < count; ++i) {
    pa[i] = static_cast<float>(i % 1024);
    pb[i] = 0.0f;
  }
  std::vector<double> times;
  for (int rep = 0; rep < 6; ++rep) {
    Stopwatch clock;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long long i = 0; i < count; ++i) pb[i] = pa[i];
    times.push_back(clock.seconds());
  }
  times.erase(times.begin());  // the first pass pays for page faults
  return {2.0 * static_cast<double>(bytes) / minimum(times) / 1e9, threads, bytes};
}

}  // namespace gpgpu
