#include "gpgpu/jacobi/spectral.hpp"

#include <cmath>
#include <random>
#include <vector>

#include "gpgpu/jacobi/reference.hpp"

namespace gpgpu::jacobi {

SpectralEstimate estimate_jacobi_spectrum(const Stencil9& A, int iterations) {
  const std::size_t n = static_cast<std::size_t>(A.grid.nodes());
  const std::vector<float>& centre = A.diag[idx(Dir::C)];
  std::vector<double> inv_sqrt_d(n);
  for (std::size_t k = 0; k < n; ++k) inv_sqrt_d[k] = 1.0 / std::sqrt(static_cast<double>(centre[k]));

  // Gershgorin on D⁻¹A: every eigenvalue lies within sum_d |a_d| / a_C of 1.
  double bound = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    double radius = 0.0;
    for (Dir d : kAllDirs)
      if (d != Dir::C) radius += std::abs(static_cast<double>(A.diag[idx(d)][k]));
    bound = std::max(bound, 1.0 + radius / centre[k]);
  }

  // Power iteration on B = D^{-1/2} A D^{-1/2}; the Rayleigh quotient vᵀBv (|v| = 1) rises to λmax.
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> v(n), w(n);
  for (double& e : v) e = uniform(rng);
  double lambda = 0.0;
  for (int it = 0; it < iterations; ++it) {
    double norm = 0.0;
    for (double e : v) norm += e * e;
    norm = std::sqrt(norm);
    for (std::size_t k = 0; k < n; ++k) w[k] = v[k] / norm * inv_sqrt_d[k];
    std::vector<double> aw = apply_matrix(A, w);
    double rayleigh = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      v[k] = aw[k] * inv_sqrt_d[k];
      rayleigh += w[k] / inv_sqrt_d[k] * v[k];  // uᵀ B u, with u = v/|v| = D^{1/2} w
    }
    lambda = rayleigh;
  }
  return {lambda, bound, iterations};
}

}  // namespace gpgpu::jacobi
