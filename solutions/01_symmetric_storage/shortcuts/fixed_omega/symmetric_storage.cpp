// Exercise 01, a shortcut the check must reject: the worked answer with ω hard-coded to the
// chapters' 0.8 instead of the argument. Right at the default ω, wrong at any other.
#include <utility>

#include "gpgpu/jacobi/layouts.hpp"
#include "symmetric_storage.hpp"

namespace ex01 {

using gpgpu::jacobi::Dir;
using gpgpu::jacobi::idx;

SymmetricStencil pack_symmetric(const gpgpu::jacobi::Stencil9& A) {
  SymmetricStencil S;
  S.grid = A.grid;
  S.offset = gpgpu::jacobi::simple_offset(A.grid);
  const Dir kept[] = {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE};  // Upper's order
  for (std::size_t u = 0; u < 5; ++u) {
    // Same padding as a ghost-padded vector: reads up to nx+1 before and after stay in range.
    S.diag[u] = gpgpu::jacobi::make_ghost_padded<float>(A.grid, A.diag[idx(kept[u])], S.offset).data;
  }
  return S;
}

std::vector<float> jacobi_symmetric(const SymmetricStencil& S, std::span<const float> rhs,
                                    std::span<const float> x0, int iters, float /*omega*/) {
  const gpgpu::jacobi::Grid g = S.grid;
  auto x = gpgpu::jacobi::make_ghost_padded<float>(g, x0, S.offset);
  auto next = gpgpu::jacobi::make_ghost_padded_zero<float>(g, S.offset);
  const std::int64_t row = g.nx;
  const float* c = S.diag[static_cast<std::size_t>(Upper::C)].data() + S.offset;
  const float* e = S.diag[static_cast<std::size_t>(Upper::E)].data() + S.offset;
  const float* nw = S.diag[static_cast<std::size_t>(Upper::NW)].data() + S.offset;
  const float* n = S.diag[static_cast<std::size_t>(Upper::N)].data() + S.offset;
  const float* ne = S.diag[static_cast<std::size_t>(Upper::NE)].data() + S.offset;
  for (int it = 0; it < iters; ++it) {
    const float* xi = x.interior();
    float* xo = next.interior();
    for (std::int64_t k = 0; k < g.nodes(); ++k) {
      // Upper couplings from this row, lower ones from the neighbour's row (A is symmetric).
      const float upper = e[k] * xi[k + 1] + nw[k] * xi[k + row - 1] + n[k] * xi[k + row] + ne[k] * xi[k + row + 1];
      const float lower = e[k - 1] * xi[k - 1] + nw[k - row + 1] * xi[k - row + 1] + n[k - row] * xi[k - row] +
                          ne[k - row - 1] * xi[k - row - 1];
      xo[k] = 0.2f * xi[k] + 0.8f * (rhs[static_cast<std::size_t>(k)] - (lower + upper)) / c[k];  // ω hard-coded
    }
    std::swap(x, next);
  }
  return {x.interior(), x.interior() + g.nodes()};
}

}  // namespace ex01
