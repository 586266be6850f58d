/// @file spectral.hpp
/// @brief How large may ω be? Weighted Jacobi converges exactly when every eigenvalue of its
/// iteration matrix I − ωD⁻¹A lies inside (−1, 1): for this symmetric positive definite A, whose
/// D⁻¹A has real eigenvalues in (0, λmax], that is 0 < ω < 2 / λmax(D⁻¹A).
///
/// D⁻¹A is similar to the symmetric B = D^{-1/2} A D^{-1/2}, so λmax is found from B, two ways:
/// - Lanczos: the largest Ritz value of a few hundred Lanczos steps on B approaches λmax from
///   below, fast (far faster than the power iteration, which after 30 steps was 2% short at 256²
///   and suggested ω < 0.908 where 0.8875 is the truth).
/// - Gershgorin: every eigenvalue of D⁻¹A lies within Σ|off-diagonal| / diagonal of 1, a bound
///   that is guaranteed and cheap; for this matrix λmax approaches it as the grid grows (where the
///   fibres run along x the stencil's symbol at (π, 0) reaches it).
/// So λmax lies between the two: ω below 2/Gershgorin converges for certain, ω above 2/Ritz
/// diverges for certain, and the band between is the grid's own business.
#pragma once
#include <iosfwd>

#include <nlohmann/json.hpp>
#include <vector>

#include "gpgpu/jacobi/bidomain.hpp"

namespace gpgpu::jacobi {

/// The project's default weight. The anisotropic conductivities give the matrix positive
/// off-diagonal entries (across-fibre couplings), which push λmax(D⁻¹A) from 2.19 on a 192 x 160
/// grid to 2.254 at 256² and towards the Gershgorin bound 2.259 on large grids (an isotropic
/// Laplacian would give 1.5). So plain Jacobi (ω = 1) diverges, and the iteration converges for
/// every grid only for ω < 2/2.259 ≈ 0.885. The smooth error modes, which dominate after a few
/// steps, decay faster the larger ω is; 0.8 stays 10% under the guaranteed bound and still damps the
/// roughest mode by |1 − 0.8·2.26| = 0.81 per step.
inline constexpr double kDefaultOmega = 0.8;

/// What is known of λmax(D⁻¹A).
struct SpectralEstimate {
  double lambda_max = 0;        ///< Lanczos: the largest Ritz value, a lower bound on λmax
  double gershgorin_bound = 0;  ///< guaranteed upper bound on λmax
  int steps = 0;                ///< Lanczos steps taken
  bool converged = false;       ///< the Ritz value changed by less than the tolerance over the last steps
  /// ω above which the iteration diverges for certain: 2 / (the Ritz value).
  [[nodiscard]] double omega_limit() const { return 2.0 / lambda_max; }
  /// ω below which convergence is guaranteed: 2 / Gershgorin bound.
  [[nodiscard]] double omega_safe() const { return 2.0 / gershgorin_bound; }
};

/// Lanczos on D^{-1/2} A D^{-1/2} from a fixed pseudo-random start (at most `max_steps` steps, and
/// at most kLanczosNodeSteps / nodes but 20 on a large grid, so that its cost stays that of 300
/// steps at 4096²; stopping once the largest Ritz value moves by less than `tolerance` relative over
/// 10 steps), plus Gershgorin. Fewer steps leave the Ritz value lower, which keeps it a lower bound.
inline constexpr double kLanczosNodeSteps = 300.0 * 4096 * 4096;
SpectralEstimate estimate_jacobi_spectrum(const Stencil9& A, int max_steps = 300, double tolerance = 1e-7);

/// Prints the estimate ("Spectrum: ... <= λmax(D⁻¹A) <= ...", the ω it allows) and a warning when
/// `omega` lies where the iteration diverges or may not converge.
void print_spectrum(std::ostream& out, const SpectralEstimate& s, double omega);

/// Its JSON: lambda_max_lanczos, lanczos_steps, gershgorin_bound, omega_diverges_above,
/// omega_converges_below.
void to_json(nlohmann::json& j, const SpectralEstimate& s);

/// The largest eigenvalue of the symmetric tridiagonal matrix with diagonal `alpha` and
/// off-diagonal `beta` (beta[i] couples i and i+1), by bisection on Sturm sequences.
double largest_tridiagonal_eigenvalue(const std::vector<double>& alpha, const std::vector<double>& beta);

}  // namespace gpgpu::jacobi
