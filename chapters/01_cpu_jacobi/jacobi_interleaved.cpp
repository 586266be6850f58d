// The paper's CPU layout (Fig. 4): the nine coefficients of row k are stored together at
// rows[9k .. 9k+8], so a row's matrix data arrive in one or two cache lines of a single stream.
// The stride of 9 floats between neighbouring nodes is what SIMD loads dislike: the compiler has
// to gather or shuffle, or stays scalar.
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu_jacobi.hpp"
#include "ping_pong.hpp"

namespace ch01 {

int default_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

InterleavedRowsSolver::InterleavedRowsSolver(const gpgpu::LinearSystem& sys, int threads)
    : sys_(sys),
      rows_(gpgpu::interleave_rows(sys.A)),
      x_(gpgpu::make_ghost_padded_zero<float>(sys.grid, gpgpu::simple_offset(sys.grid))),
      next_(gpgpu::make_ghost_padded_zero<float>(sys.grid, gpgpu::simple_offset(sys.grid))),
      threads_(threads) {}

void InterleavedRowsSolver::reset(std::span<const float> x0) {
  x_ = gpgpu::make_ghost_padded<float>(sys_.grid, x0, gpgpu::simple_offset(sys_.grid));
}

void InterleavedRowsSolver::iterate(int iters, float omega, const gpgpu::ProgressCallback& progress) {
  const float* rows = rows_.data();
  const float* f = sys_.rhs.data();
  const std::int64_t row = sys_.grid.nx;
  iterate_ping_pong(threads_, iters, x_, next_, progress, [=](const float* in, float* out, std::int64_t k) {
    const float* a = rows + 9 * k;  // SW S SE W C E NW N NE
    const float* x = in + k;
    const float sum = a[0] * x[-row - 1] + a[1] * x[-row] + a[2] * x[-row + 1] + a[3] * x[-1] + a[5] * x[1] +
                      a[6] * x[row - 1] + a[7] * x[row] + a[8] * x[row + 1];
    out[k] = jacobi_update(x[0], f[k], sum, a[4], omega);
  });
}

std::vector<float> InterleavedRowsSolver::solution() const {
  return {x_.unknowns().begin(), x_.unknowns().end()};
}

}  // namespace ch01
