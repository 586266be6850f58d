#include "gpgpu/timing.hpp"

#include <algorithm>
#include <cmath>

namespace gpgpu {

double median(std::vector<double> samples) {
  if (samples.empty()) return std::nan("");
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  return n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

double minimum(const std::vector<double>& samples) {
  return samples.empty() ? std::nan("") : *std::min_element(samples.begin(), samples.end());
}

double maximum(const std::vector<double>& samples) {
  return samples.empty() ? std::nan("") : *std::max_element(samples.begin(), samples.end());
}

std::vector<double> repeat_runs(int warmup, int repeat, const std::function<double()>& run_once) {
  for (int i = 0; i < warmup; ++i) run_once();
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(std::max(repeat, 0)));
  for (int i = 0; i < repeat; ++i) samples.push_back(run_once());
  return samples;
}

}  // namespace gpgpu
