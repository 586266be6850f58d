// The paper's separate-diagonal layout on the CPU (Fig. 2 and Fig. 12). For each node the loop
// reads one value from each of nine diagonal arrays: nine unit-stride streams of matrix data,
// besides f, x and the new x. Unit stride is what SIMD loads want: the compiler turns the loop
// into 16-wide AVX-512 (or 8-wide AVX2) arithmetic.
#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/jacobi/convergence.hpp"
#include "gpgpu/jacobi/cpu/ping_pong.hpp"

namespace gpgpu::jacobi::cpu {


SeparateDiagonalsSolver::SeparateDiagonalsSolver(const LinearSystem& sys, int threads)
    : sys_(sys),
      x_(make_ghost_padded_zero<float>(sys.grid, simple_offset(sys.grid))),
      next_(make_ghost_padded_zero<float>(sys.grid, simple_offset(sys.grid))),
      threads_(threads) {}

void SeparateDiagonalsSolver::reset(std::span<const float> x0) {
  x_ = make_ghost_padded<float>(sys_.grid, x0, simple_offset(sys_.grid));
}

// One sweep over nodes [begin, end). Nine unit-stride coefficient streams: the loads of 16
// consecutive nodes are one AVX-512 vector per diagonal, so the loop vectorises.
//! [sweep]
void sweep_separate(const LinearSystem& sys, const float* __restrict x, float* __restrict y, std::int64_t begin,
                    std::int64_t end, float omega) {
  const auto& d = sys.A.diag;
  const float* __restrict sw = d[idx(Dir::SW)].data();
  const float* __restrict s = d[idx(Dir::S)].data();
  const float* __restrict se = d[idx(Dir::SE)].data();
  const float* __restrict w = d[idx(Dir::W)].data();
  const float* __restrict c = d[idx(Dir::C)].data();
  const float* __restrict e = d[idx(Dir::E)].data();
  const float* __restrict nw = d[idx(Dir::NW)].data();
  const float* __restrict n = d[idx(Dir::N)].data();
  const float* __restrict ne = d[idx(Dir::NE)].data();
  const float* __restrict f = sys.rhs.data();
  const std::int64_t row = sys.grid.nx;
  for (std::int64_t k = begin; k < end; ++k) {
    const float sum = sw[k] * x[k - row - 1] + s[k] * x[k - row] + se[k] * x[k - row + 1] + w[k] * x[k - 1] +
                      e[k] * x[k + 1] + nw[k] * x[k + row - 1] + n[k] * x[k + row] + ne[k] * x[k + row + 1];
    y[k] = jacobi_update(x[k], f[k], sum, c[k], omega);
  }
}
//! [sweep]

double SeparateDiagonalsSolver::iterate(int iters, float omega) {
  const gpgpu::Stopwatch clock;
  iterate_ping_pong(threads_, iters, x_, next_,
                    [&](const float* in, float* out, std::int64_t begin, std::int64_t end) {
                      sweep_separate(sys_, in, out, begin, end, omega);
                    });
  return clock.seconds();
}

std::vector<float> SeparateDiagonalsSolver::solution() {
  return {x_.unknowns().begin(), x_.unknowns().end()};
}

double SeparateDiagonalsSolver::squared_update() const {
  return gpgpu::jacobi::squared_update(x_.unknowns().data(), next_.unknowns().data(), sys_.grid.nodes());
}

}  // namespace gpgpu::jacobi::cpu
