#include "gpgpu/jacobi/spectral.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <random>
#include <vector>

#include "gpgpu/jacobi/layouts.hpp"

namespace gpgpu::jacobi {

double largest_tridiagonal_eigenvalue(const std::vector<double>& alpha, const std::vector<double>& beta) {
  const std::size_t m = alpha.size();
  if (m == 0) return 0.0;
  // Gershgorin brackets the spectrum of T; bisection then narrows the largest eigenvalue down to
  // rounding, counting with a Sturm sequence how many eigenvalues lie below a shift.
  double lo = alpha[0], hi = alpha[0];
  for (std::size_t i = 0; i < m; ++i) {
    const double r = (i > 0 ? std::abs(beta[i - 1]) : 0.0) + (i + 1 < m ? std::abs(beta[i]) : 0.0);
    lo = std::min(lo, alpha[i] - r);
    hi = std::max(hi, alpha[i] + r);
  }
  const auto below = [&](double x) {  // eigenvalues of T less than x
    std::size_t count = 0;
    double d = 1.0;
    for (std::size_t i = 0; i < m; ++i) {
      const double b2 = i > 0 ? beta[i - 1] * beta[i - 1] : 0.0;
      d = alpha[i] - x - (i > 0 ? b2 / d : 0.0);
      if (d == 0.0) d = -1e-300;  // a zero pivot counts as just negative
      if (d < 0.0) ++count;
    }
    return count;
  };
  for (int it = 0; it < 200 && hi - lo > 1e-15 * std::max(1.0, std::abs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    (below(mid) == m ? hi : lo) = mid;  // all m below mid: the largest is below it too
  }
  return 0.5 * (lo + hi);
}

SpectralEstimate estimate_jacobi_spectrum(const Stencil9& A, int max_steps, double tolerance) {
  const std::size_t n = static_cast<std::size_t>(A.grid.nodes());
  const std::vector<float>& centre = A.diag[idx(Dir::C)];
  std::vector<double> inv_sqrt_d(n);
  for (std::size_t k = 0; k < n; ++k) inv_sqrt_d[k] = 1.0 / std::sqrt(static_cast<double>(centre[k]));

  SpectralEstimate s;
  // Gershgorin on D⁻¹A: every eigenvalue lies within Σ|a_d| / a_C of 1.
  for (std::size_t k = 0; k < n; ++k) {
    double radius = 0.0;
    for (Dir d : kAllDirs)
      if (d != Dir::C) radius += std::abs(static_cast<double>(A.diag[idx(d)][k]));
    s.gershgorin_bound = std::max(s.gershgorin_bound, 1.0 + radius / centre[k]);
  }

  // Lanczos on B = D^{-1/2} A D^{-1/2}: q ← B q_j − β_{j−1} q_{j−1} − α_j q_j, normalised. Without
  // reorthogonalisation converged Ritz values repeat ("ghosts") but do not leave the spectrum, so the
  // largest one still approaches λmax from below. B q is A applied to z = D^{-1/2} q, kept in a
  // ghost-padded buffer (zero ghosts: the boundary rows need no tests), then scaled by D^{-1/2}.
  const std::int64_t row = A.grid.nx;
  GhostPadded<double> z = make_ghost_padded_zero<double>(A.grid, simple_offset(A.grid));
  const auto nodes = static_cast<std::int64_t>(n);
  const auto apply_b = [&](const std::vector<double>& v, std::vector<double>& w) {
    double* zi = z.interior();
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < nodes; ++k) zi[k] = v[static_cast<std::size_t>(k)] * inv_sqrt_d[static_cast<std::size_t>(k)];
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < nodes; ++k) {
      double sum = 0.0;
      for (Dir d : kAllDirs) sum += static_cast<double>(A.diag[idx(d)][static_cast<std::size_t>(k)]) * zi[k + offset(d, row)];
      w[static_cast<std::size_t>(k)] = sum * inv_sqrt_d[static_cast<std::size_t>(k)];
    }
  };
  const auto dot = [nodes](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (std::int64_t k = 0; k < nodes; ++k) sum += a[static_cast<std::size_t>(k)] * b[static_cast<std::size_t>(k)];
    return sum;
  };
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> q(n), previous(n, 0.0), w(n);
  for (double& e : q) e = uniform(rng);
  const double norm0 = std::sqrt(dot(q, q));
  for (double& e : q) e /= norm0;
  std::vector<double> alpha, beta;
  double ritz = 0.0, ritz_10_steps_ago = 0.0;
  const int affordable = std::max(20, static_cast<int>(kLanczosNodeSteps / static_cast<double>(n)));
  const int steps = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::clamp(max_steps, 1, affordable)), n));
  for (int j = 0; j < steps; ++j) {
    apply_b(q, w);
    const double a = dot(w, q);
    alpha.push_back(a);
    const double b_prev = beta.empty() ? 0.0 : beta.back();
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < nodes; ++k) {
      const auto i = static_cast<std::size_t>(k);
      w[i] -= a * q[i] + b_prev * previous[i];
    }
    const double b = std::sqrt(dot(w, w));
    s.steps = j + 1;
    const bool last = j + 1 == steps || b <= 1e-12 * std::abs(a);
    if (j % 10 == 9 || last) ritz = largest_tridiagonal_eigenvalue(alpha, beta);  // every 10 steps is enough
    if (j % 10 == 9) {
      if (std::abs(ritz - ritz_10_steps_ago) <= tolerance * ritz) {
        s.converged = true;
        break;
      }
      ritz_10_steps_ago = ritz;
    }
    if (b <= 1e-12 * std::abs(a)) {  // an invariant subspace: the Ritz values are eigenvalues
      s.converged = true;
      break;
    }
    beta.push_back(b);
    previous.swap(q);
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < nodes; ++k) q[static_cast<std::size_t>(k)] = w[static_cast<std::size_t>(k)] / b;
  }
  if (static_cast<std::size_t>(s.steps) == n) s.converged = true;
  s.lambda_max = ritz;
  return s;
}

void print_spectrum(std::ostream& out, const SpectralEstimate& s, double omega) {
  const auto flags = out.flags();
  out << std::setprecision(4) << "Spectrum: " << s.lambda_max << " <= λmax(D⁻¹A) <= " << s.gershgorin_bound
      << " (Lanczos, " << s.steps << " steps" << (s.converged ? "" : ", not converged")
      << "; Gershgorin): weighted Jacobi converges for every ω < " << s.omega_safe() << " and diverges for every ω > "
      << s.omega_limit() << "\n";
  if (omega > s.omega_limit())
    out << "Warning:  ω = " << omega << " > 2/λmax = " << s.omega_limit()
        << ": the iteration diverges (results will fail verification or overflow)\n";
  else if (omega >= s.omega_safe())
    out << "Warning:  ω = " << omega << " >= 2/(Gershgorin bound) = " << s.omega_safe()
        << ": convergence is not guaranteed (λmax of this grid decides)\n";
  out.flags(flags);
}

void to_json(nlohmann::json& j, const SpectralEstimate& s) {
  j = {{"lambda_max_lanczos", s.lambda_max},
       {"lanczos_steps", s.steps},
       {"gershgorin_bound", s.gershgorin_bound},
       {"omega_diverges_above", s.omega_limit()},
       {"omega_converges_below", s.omega_safe()}};
}

}  // namespace gpgpu::jacobi
