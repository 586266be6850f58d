// The paper's CPU layout (Fig. 4): the nine coefficients of row k are stored together at
// rows[9k .. 9k+8], so a row's matrix data arrive in one or two cache lines of a single stream.
// The stride of 9 floats between neighbouring nodes is what SIMD loads dislike: the compiler has
// to gather or shuffle, or stays scalar.
#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/jacobi/cpu/ping_pong.hpp"

namespace gpgpu::jacobi::cpu {

InterleavedRowsSolver::InterleavedRowsSolver(const LinearSystem& sys, int threads)
    : sys_(sys),
      rows_(interleave_rows(sys.A)),
      x_(make_ghost_padded_zero<float>(sys.grid, simple_offset(sys.grid))),
      next_(make_ghost_padded_zero<float>(sys.grid, simple_offset(sys.grid))),
      threads_(threads) {}

void InterleavedRowsSolver::reset(std::span<const float> x0) {
  x_ = make_ghost_padded<float>(sys_.grid, x0, simple_offset(sys_.grid));
}

namespace {

// One sweep over nodes [begin, end). Node k's coefficients are rows[9k .. 9k+8]: one stream, but a
// stride of 9 floats between neighbouring nodes, which SIMD loads can only follow with gathers.
//! [sweep]
void sweep_interleaved(const float* __restrict rows, const float* __restrict f, std::int64_t row,
                       const float* __restrict x, float* __restrict y, std::int64_t begin, std::int64_t end,
                       float omega) {
  for (std::int64_t k = begin; k < end; ++k) {
    const float* a = rows + 9 * k;  // SW S SE W C E NW N NE
    const float sum = a[0] * x[k - row - 1] + a[1] * x[k - row] + a[2] * x[k - row + 1] + a[3] * x[k - 1] +
                      a[5] * x[k + 1] + a[6] * x[k + row - 1] + a[7] * x[k + row] + a[8] * x[k + row + 1];
    y[k] = jacobi_update(x[k], f[k], sum, a[4], omega);
  }
}
//! [sweep]

}  // namespace

double InterleavedRowsSolver::iterate(int iters, float omega) {
  const gpgpu::Stopwatch clock;
  iterate_ping_pong(threads_, iters, x_, next_,
                    [&](const float* in, float* out, std::int64_t begin, std::int64_t end) {
                      sweep_interleaved(rows_.data(), sys_.rhs.data(), sys_.grid.nx, in, out, begin, end, omega);
                    });
  return clock.seconds();
}

std::vector<float> InterleavedRowsSolver::solution() {
  return {x_.unknowns().begin(), x_.unknowns().end()};
}

}  // namespace gpgpu::jacobi::cpu
