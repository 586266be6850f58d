#include <cmath>
#include <stdexcept>

#include "test_support.hpp"

namespace gpgpu::jacobi::checks {

std::vector<double> dense_matrix(const Stencil9& A) {
  const std::int64_t n = A.grid.nodes();
  std::vector<double> M(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t k = 0; k < n; ++k) {
    for (Dir d : kAllDirs) {
      const float a = A.at(d, k);
      if (a == 0.0f) continue;
      const std::int64_t col = k + offset(d, A.grid.nx);
      if (col < 0 || col >= n) throw std::logic_error("non-zero coefficient outside the matrix");
      M[static_cast<std::size_t>(k * n + col)] = a;
    }
  }
  return M;
}

std::vector<double> direct_solve(const Stencil9& A, const std::vector<float>& f) {
  const auto n = static_cast<std::size_t>(A.grid.nodes());
  std::vector<double> L = dense_matrix(A);
  // In-place Cholesky: L Lᵀ = A (lower triangle).
  for (std::size_t j = 0; j < n; ++j) {
    double d = L[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= L[j * n + k] * L[j * n + k];
    if (d <= 0) throw std::runtime_error("matrix is not positive definite");
    L[j * n + j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = L[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / L[j * n + j];
    }
  }
  std::vector<double> y(f.begin(), f.end());
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < i; ++k) y[i] -= L[i * n + k] * y[k];
    y[i] /= L[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t k = i + 1; k < n; ++k) y[i] -= L[k * n + i] * y[k];
    y[i] /= L[i * n + i];
  }
  return y;
}

}  // namespace gpgpu::jacobi::checks
