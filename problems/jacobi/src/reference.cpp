#include "gpgpu/jacobi/reference.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "gpgpu/jacobi/convergence.hpp"
#include "gpgpu/jacobi/layouts.hpp"

namespace gpgpu::jacobi {
namespace {

void require_size(std::size_t got, const Grid& g, const char* what) {
  if (static_cast<std::int64_t>(got) != g.nodes()) throw std::invalid_argument(std::string(what) + ": wrong length");
}

// Raw pointers to the nine diagonals and their column offsets, so the loops below vectorise.
struct DiagonalView {
  std::array<const float*, 9> a{};
  std::array<std::int64_t, 9> off{};
  explicit DiagonalView(const Stencil9& A) {
    for (Dir d : kAllDirs) {
      a[idx(d)] = A.diag[idx(d)].data();
      off[idx(d)] = offset(d, A.grid.nx);
    }
  }
  // (L+U)x at unknown k of a ghost-padded x: the zero coefficients at the grid's edge make the
  // ghost (and wrapped-around) values irrelevant.
  [[nodiscard]] double off_diagonal_sum(const double* x, std::int64_t k) const {
    double s = 0.0;
    for (int d = 0; d < kStencilPoints; ++d)
      if (d != idx(Dir::C)) s += static_cast<double>(a[d][k]) * x[k + off[d]];
    return s;
  }
};

}  // namespace

std::vector<double> jacobi_reference(const LinearSystem& sys, std::span<const float> x0, int iters, double omega,
                                     const ProgressCallback& progress) {
  return jacobi_reference_until(sys, x0, iters, omega, Convergence{}, progress).x;
}

ReferenceRun jacobi_reference_until(const LinearSystem& sys, std::span<const float> x0, int iters, double omega,
                                    const Convergence& check, const ProgressCallback& progress) {
  const Grid g = sys.grid;
  require_size(x0.size(), g, "jacobi_reference x0");
  if (iters < 0) throw std::invalid_argument("jacobi_reference: negative iteration count");
  std::vector<double> start(x0.begin(), x0.end());
  auto x = make_ghost_padded<double>(g, start, simple_offset(g));
  auto next = make_ghost_padded_zero<double>(g, simple_offset(g));
  const std::int64_t n = g.nodes();
  const DiagonalView A(sys.A);
  const float* f = sys.rhs.data();
  ReferenceRun run;
  for (int it = 0; it < iters; ++it) {
    const double* xi = x.interior();
    double* xo = next.interior();
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < n; ++k) {
      const double s = A.off_diagonal_sum(xi, k);
      xo[k] = (1.0 - omega) * xi[k] + omega * (static_cast<double>(f[k]) - s) / static_cast<double>(A.a[idx(Dir::C)][k]);
    }
    std::swap(x, next);
    run.stop.iterations = it + 1;
    if (progress) progress(it + 1, iters);
    if (!check.checks(it + 1)) continue;
    double sum = 0.0;
    const double *now = x.interior(), *before = next.interior();
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (std::int64_t k = 0; k < n; ++k) sum += (now[k] - before[k]) * (now[k] - before[k]);
    run.stop.norm = std::sqrt(sum);
    if (check.converged(run.stop.norm)) break;
  }
  run.x.assign(x.interior(), x.interior() + n);
  double x2 = 0.0;
  for (double v : run.x) x2 += v * v;
  run.x_norm = std::sqrt(x2);
  return run;
}

std::vector<double> apply_matrix(const Stencil9& A, std::span<const double> x) {
  const Grid g = A.grid;
  require_size(x.size(), g, "apply_matrix x");
  const auto xp = make_ghost_padded<double>(g, x, simple_offset(g));
  const std::int64_t n = g.nodes();
  std::vector<double> y(static_cast<std::size_t>(n));
  const DiagonalView view(A);
  const double* xi = xp.interior();
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k)
    y[static_cast<std::size_t>(k)] = view.off_diagonal_sum(xi, k) + static_cast<double>(view.a[idx(Dir::C)][k]) * xi[k];
  return y;
}

double relative_residual(const LinearSystem& sys, std::span<const double> x) {
  const std::vector<double> ax = apply_matrix(sys.A, x);
  double r2 = 0.0, f2 = 0.0;
  for (std::size_t k = 0; k < ax.size(); ++k) {
    const double f = sys.rhs[k];
    r2 += (f - ax[k]) * (f - ax[k]);
    f2 += f * f;
  }
  return f2 > 0 ? std::sqrt(r2 / f2) : std::sqrt(r2);
}

double relative_residual(const LinearSystem& sys, std::span<const float> x) {
  const std::vector<double> xd(x.begin(), x.end());
  return relative_residual(sys, xd);
}

double jacobi_tolerance(int iters) {
  constexpr double u = std::numeric_limits<float>::epsilon() / 2;  // unit roundoff 2^-24
  return 4.0 * u * (static_cast<double>(iters) + 16.0);
}

}  // namespace gpgpu::jacobi
