// The paper's separate-diagonal layout on the CPU (Fig. 2 and Fig. 12). For each node the loop
// reads one value from each of nine diagonal arrays: nine unit-stride streams of matrix data,
// besides f, x and the new x. Unit stride is what SIMD loads want: the compiler turns the loop
// into 16-wide AVX-512 (or 8-wide AVX2) arithmetic.
#include "cpu_jacobi.hpp"
#include "ping_pong.hpp"

namespace ch01 {

using gpgpu::Dir;
using gpgpu::idx;

SeparateDiagonalsSolver::SeparateDiagonalsSolver(const gpgpu::LinearSystem& sys, int threads)
    : sys_(sys),
      x_(gpgpu::make_ghost_padded_zero<float>(sys.grid, gpgpu::simple_offset(sys.grid))),
      next_(gpgpu::make_ghost_padded_zero<float>(sys.grid, gpgpu::simple_offset(sys.grid))),
      threads_(threads) {}

void SeparateDiagonalsSolver::reset(std::span<const float> x0) {
  x_ = gpgpu::make_ghost_padded<float>(sys_.grid, x0, gpgpu::simple_offset(sys_.grid));
}

void SeparateDiagonalsSolver::iterate(int iters, float omega, const gpgpu::ProgressCallback& progress) {
  const auto& d = sys_.A.diag;
  const float* sw = d[idx(Dir::SW)].data();
  const float* s = d[idx(Dir::S)].data();
  const float* se = d[idx(Dir::SE)].data();
  const float* w = d[idx(Dir::W)].data();
  const float* c = d[idx(Dir::C)].data();
  const float* e = d[idx(Dir::E)].data();
  const float* nw = d[idx(Dir::NW)].data();
  const float* n = d[idx(Dir::N)].data();
  const float* ne = d[idx(Dir::NE)].data();
  const float* f = sys_.rhs.data();
  const std::int64_t row = sys_.grid.nx;
  iterate_ping_pong(threads_, iters, x_, next_, progress, [=](const float* x, float* y, std::int64_t k) {
    const float sum = sw[k] * x[k - row - 1] + s[k] * x[k - row] + se[k] * x[k - row + 1] + w[k] * x[k - 1] +
                      e[k] * x[k + 1] + nw[k] * x[k + row - 1] + n[k] * x[k + row] + ne[k] * x[k + row + 1];
    y[k] = jacobi_update(x[k], f[k], sum, c[k], omega);
  });
}

std::vector<float> SeparateDiagonalsSolver::solution() const {
  return {x_.unknowns().begin(), x_.unknowns().end()};
}

}  // namespace ch01
