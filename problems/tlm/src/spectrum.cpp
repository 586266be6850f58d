#include "gpgpu/tlm/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <numeric>

namespace gpgpu::tlm {

double windowed_dft_magnitude(std::span<const double> x, double dt, double f) {
  const std::size_t n = x.size();
  if (n < 2) return 0.0;
  const double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
  // e^{-iωnΔt} by rotation (one complex multiply per sample), renormalised every 1024 samples so
  // that rounding cannot change its length.
  const std::complex<double> turn = std::polar(1.0, -2.0 * std::numbers::pi * f * dt);
  std::complex<double> phase = 1.0, sum = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double w = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n - 1));
    sum += w * (x[k] - mean) * phase;
    phase *= turn;
    if ((k & 1023) == 1023) phase /= std::abs(phase);
  }
  return std::abs(sum);
}

std::vector<double> windowed_spectrum(std::span<const double> x, double dt, std::span<const double> f) {
  std::vector<double> out(f.size());
#pragma omp parallel for schedule(dynamic, 16)
  for (std::size_t k = 0; k < f.size(); ++k) out[k] = windowed_dft_magnitude(x, dt, f[k]);
  return out;
}

Peak find_peak(std::span<const double> x, double dt, double f_lo, double f_hi) {
  const double bin = bin_hz(x.size(), dt);
  const int cells = std::max(2, static_cast<int>(std::ceil((f_hi - f_lo) / (0.05 * bin))));
  const double h = (f_hi - f_lo) / cells;
  std::vector<double> grid(static_cast<std::size_t>(cells) + 1);
  for (int c = 0; c <= cells; ++c) grid[static_cast<std::size_t>(c)] = f_lo + c * h;
  const std::vector<double> mag = windowed_spectrum(x, dt, grid);
  const auto best = static_cast<int>(std::max_element(mag.begin(), mag.end()) - mag.begin());
  Peak peak{grid[static_cast<std::size_t>(best)], mag[static_cast<std::size_t>(best)], best > 0 && best < cells};
  if (!peak.interior) return peak;
  // Golden section on [best-1, best+1]: the maximum of a smooth peak lies inside that grid cell pair.
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  double a = peak.f - h, b = peak.f + h;
  double c = b - g * (b - a), d = a + g * (b - a);
  double fc = windowed_dft_magnitude(x, dt, c), fd = windowed_dft_magnitude(x, dt, d);
  while (b - a > 1e-5 * bin) {
    if (fc > fd) {
      b = d, d = c, fd = fc;
      c = b - g * (b - a), fc = windowed_dft_magnitude(x, dt, c);
    } else {
      a = c, c = d, fc = fd;
      d = a + g * (b - a), fd = windowed_dft_magnitude(x, dt, d);
    }
  }
  peak.f = 0.5 * (a + b);
  peak.magnitude = windowed_dft_magnitude(x, dt, peak.f);
  return peak;
}

}  // namespace gpgpu::tlm
