/// @file spectral.hpp
/// @brief How large may ω be? Weighted Jacobi converges only if ω < 2 / λmax(D⁻¹A).
///
/// D⁻¹A is similar to the symmetric D^{-1/2} A D^{-1/2}, so its eigenvalues are real and positive
/// (A is symmetric positive definite). A few power iterations on the symmetric form give a
/// Rayleigh quotient that approaches λmax from below; Gershgorin's theorem gives a guaranteed
/// upper bound. Chapter 01's text explains the choice of the default ω from these numbers.
#pragma once
#include "gpgpu/jacobi/bidomain.hpp"

namespace gpgpu::jacobi {

/// The project's default weight. The anisotropic conductivities give the matrix positive
/// off-diagonal entries (across-fibre couplings), which push λmax(D⁻¹A) to about 2.25 for the
/// default problem at every grid size (power iteration 2.25, Gershgorin bound 2.26; an isotropic
/// Laplacian would give 1.5). So the iteration converges only for ω < 2/2.26 ≈ 0.885. The smooth
/// error modes, which dominate after a few steps, decay faster the larger ω is; 0.8 stays 10% under
/// the guaranteed bound and still damps the roughest mode by |1 − 0.8·2.25| = 0.8 per step.
inline constexpr double kDefaultOmega = 0.8;

/// Estimates of the spectrum of D⁻¹A.
struct SpectralEstimate {
  double lambda_max = 0;        ///< power-iteration estimate (a lower bound that converges up)
  double gershgorin_bound = 0;  ///< guaranteed upper bound on λmax
  int iterations = 0;           ///< power iterations used
  /// Largest ω for which the iteration converges, from the estimate: 2 / λmax.
  [[nodiscard]] double omega_limit() const { return 2.0 / lambda_max; }
  /// ω below which convergence is guaranteed: 2 / Gershgorin bound.
  [[nodiscard]] double omega_safe() const { return 2.0 / gershgorin_bound; }
};

/// Power iteration on D^{-1/2} A D^{-1/2} from a fixed pseudo-random start, plus Gershgorin.
SpectralEstimate estimate_jacobi_spectrum(const Stencil9& A, int iterations = 60);

}  // namespace gpgpu::jacobi
