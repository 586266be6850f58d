#include "gpgpu/timing.hpp"

#include <algorithm>
#include <limits>

namespace gpgpu {

double median(std::vector<double> samples) {
  if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  return n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

double minimum(const std::vector<double>& samples) {
  if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
  return *std::min_element(samples.begin(), samples.end());
}

}  // namespace gpgpu
