// The CSR assembly of chapter 07b's library peer: the nine diagonals, read row by row, with the
// neighbours outside the grid left out.
#include "csr_matrix.hpp"

#include <limits>
#include <string>

#include "gpgpu/errors.hpp"

namespace ch07b {

using gpgpu::jacobi::Dir;
using gpgpu::jacobi::Grid;

namespace {

// Whether node (i, j)'s neighbour in direction d lies inside the grid.
bool inside(const Grid& g, int i, int j, Dir d) {
  const int ni = i + gpgpu::jacobi::dx(d), nj = j + gpgpu::jacobi::dy(d);
  return ni >= 0 && ni < g.nx && nj >= 0 && nj < g.ny;
}

// The CSR structure of A with `value(k, d)` as the entry of row k in direction d. kAllDirs runs from
// the lowest diagonal to the highest, so the columns of a row come out ascending.
template <typename Value>
CsrMatrix assemble(const Grid& g, Value value) {
  const std::int64_t nonzeros = stencil_nonzeros(g);
  if (nonzeros > std::numeric_limits<std::int32_t>::max())
    throw gpgpu::UsageError("grid " + g.str() + ": " + std::to_string(nonzeros) +
                            " matrix entries do not fit the 32-bit indices of the CSR matrix");
  CsrMatrix m;
  m.rows = g.nodes();
  m.row_offsets.reserve(static_cast<std::size_t>(m.rows) + 1);
  m.columns.reserve(static_cast<std::size_t>(nonzeros));
  m.values.reserve(static_cast<std::size_t>(nonzeros));
  m.row_offsets.push_back(0);
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const std::int64_t k = static_cast<std::int64_t>(j) * g.nx + i;
      for (Dir d : gpgpu::jacobi::kAllDirs) {
        if (!inside(g, i, j, d)) continue;
        m.columns.push_back(static_cast<std::int32_t>(k + gpgpu::jacobi::offset(d, g.nx)));
        m.values.push_back(value(k, d));
      }
      m.row_offsets.push_back(static_cast<std::int32_t>(m.values.size()));
    }
  return m;
}

}  // namespace

std::int64_t stencil_nonzeros(const Grid& g) {
  // Along one axis of n nodes there are 3n − 2 (node, neighbour) pairs at distance 0 or 1 (n − 1
  // fewer on each side); the nine-point entries are the pairs of both axes.
  return (3 * static_cast<std::int64_t>(g.nx) - 2) * (3 * static_cast<std::int64_t>(g.ny) - 2);
}

double csr_bytes(const Grid& g) {
  return 8.0 * static_cast<double>(stencil_nonzeros(g)) + 4.0 * static_cast<double>(g.nodes() + 1);
}

CsrMatrix csr_from_diagonals(const gpgpu::jacobi::Stencil9& A) {
  return assemble(A.grid, [&A](std::int64_t k, Dir d) { return A.at(d, k); });
}

JacobiCsr jacobi_iteration_csr(const gpgpu::jacobi::LinearSystem& sys, double omega) {
  const gpgpu::jacobi::Stencil9& A = sys.A;
  JacobiCsr out;
  out.M = assemble(sys.grid, [&A, omega](std::int64_t k, Dir d) {
    const double centre = A.at(Dir::C, k);
    if (d == Dir::C) return static_cast<float>(1.0 - omega);  // 1 − ω a_C / a_C
    return static_cast<float>(-omega * A.at(d, k) / centre);
  });
  out.c.resize(sys.rhs.size());
  for (std::size_t k = 0; k < out.c.size(); ++k)
    out.c[k] = static_cast<float>(omega * sys.rhs[k] / A.at(Dir::C, static_cast<std::int64_t>(k)));
  return out;
}

std::vector<double> multiply(const CsrMatrix& M, std::span<const double> x) {
  std::vector<double> y(static_cast<std::size_t>(M.rows), 0.0);
  for (std::int64_t k = 0; k < M.rows; ++k) {
    double sum = 0;
    for (std::int32_t e = M.row_offsets[static_cast<std::size_t>(k)]; e < M.row_offsets[static_cast<std::size_t>(k) + 1]; ++e)
      sum += static_cast<double>(M.values[static_cast<std::size_t>(e)]) * x[static_cast<std::size_t>(M.columns[static_cast<std::size_t>(e)])];
    y[static_cast<std::size_t>(k)] = sum;
  }
  return y;
}

}  // namespace ch07b
