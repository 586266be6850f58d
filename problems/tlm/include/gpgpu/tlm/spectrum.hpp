/// @file spectrum.hpp
/// @brief The spectrum of a probe signal: a Hann-windowed discrete Fourier transform evaluated at
/// any frequency, and the peaks it shows.
///
/// A plain DFT, not an FFT library: a run's probe holds a few thousand samples and the checks need
/// the transform at a few hundred chosen frequencies, each a sum over the samples (about 10⁶
/// operations per peak, a millisecond). Evaluating the windowed transform at any frequency lets a
/// peak be located to a small fraction of the bin 1/(N·Δt) without zero padding; an FFT (FFTW,
/// libfftw3-dev) would give the whole grid at once but add a dependency for nothing the chapter uses.
#pragma once
#include <span>
#include <vector>

namespace gpgpu::tlm {

/// |Σ w(n) x(n) e^{−2πi f n Δt}| for a Hann window w over the N samples, the mean removed first
/// (a static field left by the source would otherwise leak its DC into the low bins).
double windowed_dft_magnitude(std::span<const double> x, double dt, double f);

/// The same at every frequency of `f`.
std::vector<double> windowed_spectrum(std::span<const double> x, double dt, std::span<const double> f);

/// The bin width 1/(N·Δt) of N samples.
[[nodiscard]] inline double bin_hz(std::size_t samples, double dt) { return 1.0 / (static_cast<double>(samples) * dt); }

struct Peak {
  double f = 0;          ///< Hz
  double magnitude = 0;  ///< windowed_dft_magnitude at f
  bool interior = false; ///< the maximum lies inside the interval (not at an end): a peak, not a slope
};

/// The largest value of the windowed spectrum in [f_lo, f_hi]: a grid of 0.05 bins, then a golden
/// section search on the best grid cell (to 1e-5 bins).
Peak find_peak(std::span<const double> x, double dt, double f_lo, double f_hi);

}  // namespace gpgpu::tlm
