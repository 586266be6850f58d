// The double-precision reference: A x agrees with the dense matrix, the residual falls, the
// iterate approaches a direct solve, and the iteration diverges above the spectral limit.
#include <cmath>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/spectral.hpp"
#include "test_support.hpp"

namespace gpgpu::jacobi {
namespace {

double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0, n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d += (a[i] - b[i]) * (a[i] - b[i]);
    n += b[i] * b[i];
  }
  return std::sqrt(d / n);
}

TEST(Reference, ApplyMatrixAgreesWithTheDenseMatrix) {
  for (const Grid g : {Grid{1, 1}, Grid{2, 7}, Grid{9, 4}}) {
    const LinearSystem sys = assemble_bidomain(g);
    const auto xf = checks::random_guess(g.nodes(), 3, -1.0f, 1.0f);
    const std::vector<double> x(xf.begin(), xf.end());
    const std::vector<double> M = checks::dense_matrix(sys.A);
    const auto n = static_cast<std::size_t>(g.nodes());
    const std::vector<double> y = apply_matrix(sys.A, x);
    for (std::size_t i = 0; i < n; ++i) {
      double expect = 0;
      for (std::size_t j = 0; j < n; ++j) expect += M[i * n + j] * x[j];
      EXPECT_NEAR(y[i], expect, 1e-12) << g.str() << " row " << i;
    }
  }
}

TEST(Reference, ResidualFallsMonotonicallyFromZero) {
  const LinearSystem sys = assemble_bidomain({33, 27});
  const std::vector<float> x0(static_cast<std::size_t>(sys.grid.nodes()), 0.0f);
  double previous = relative_residual(sys, x0);
  EXPECT_DOUBLE_EQ(previous, 1.0);
  for (int iters : {10, 50, 200, 1000}) {
    const double r = relative_residual(sys, jacobi_reference(sys, x0, iters, kDefaultOmega));
    EXPECT_LT(r, previous) << iters << " iterations";
    previous = r;
  }
  EXPECT_LT(previous, 0.2);
}

TEST(Reference, ConvergesToTheDirectSolutionOnASmallGrid) {
  // 9×7 unknowns: the slowest mode decays by about 1 − ω λmin ≈ 0.99 per step, so 4000 steps
  // shrink the initial error by far more than the 1e-9 asked here.
  const LinearSystem sys = assemble_bidomain({9, 7});
  const std::vector<double> exact = checks::direct_solve(sys.A, sys.rhs);
  const auto x0 = checks::random_guess(sys.grid.nodes(), 11, -50.0f, 50.0f);
  const std::vector<double> x = jacobi_reference(sys, x0, 4000, kDefaultOmega);
  EXPECT_LT(rel_diff(x, exact), 1e-9);
  EXPECT_LT(relative_residual(sys, x), 1e-9);
}

TEST(Reference, DivergesAboveTheSpectralLimit) {
  const LinearSystem sys = assemble_bidomain({32, 32});
  const SpectralEstimate s = estimate_jacobi_spectrum(sys.A, 200);
  const auto x0 = checks::random_guess(sys.grid.nodes(), 5, -1.0f, 1.0f);
  const double omega = 1.1 * s.omega_limit();  // just beyond 2/λmax
  ASSERT_LT(omega, 2.0);
  const double r = relative_residual(sys, jacobi_reference(sys, x0, 400, omega));
  EXPECT_GT(r, 1e3);
}

TEST(Spectrum, PowerEstimateStaysBelowGershgorinAndMatchesTheChosenOmega) {
  const LinearSystem sys = assemble_bidomain({64, 48});
  const SpectralEstimate s = estimate_jacobi_spectrum(sys.A, 200);
  EXPECT_LE(s.lambda_max, s.gershgorin_bound * (1 + 1e-12));
  EXPECT_GT(s.lambda_max, 2.0);  // the anisotropy pushes λmax above the isotropic 1.5
  EXPECT_LT(kDefaultOmega, s.omega_safe());
}

TEST(Spectrum, SingleUnknownHasEigenvalueOne) {
  const LinearSystem sys = assemble_bidomain({1, 1});
  const SpectralEstimate s = estimate_jacobi_spectrum(sys.A, 5);
  EXPECT_NEAR(s.lambda_max, 1.0, 1e-12);
  EXPECT_NEAR(s.gershgorin_bound, 1.0, 1e-12);
}

}  // namespace
}  // namespace gpgpu::jacobi
