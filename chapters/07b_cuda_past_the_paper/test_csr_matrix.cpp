// Chapter 07b's CSR assembly on the CPU (label cpu, no GPU needed), so that the cuSPARSE peer gets
// the right matrix before a GPU ever runs it: the structure (row offsets, ascending columns inside
// the grid, the count of entries), A's CSR product against the stencil's own product
// (gpgpu::jacobi::apply_matrix), and M x + c against one weighted Jacobi step of the reference, at
// awkward sizes (one node, one row, one column, odd sizes).
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "csr_matrix.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/spectral.hpp"

namespace {

using gpgpu::jacobi::Grid;

const Grid kGrids[] = {{1, 1}, {1, 7}, {7, 1}, {2, 2}, {2, 7}, {17, 33}, {64, 10}};

double relative_difference(std::span<const double> a, std::span<const double> b) {
  double diff = 0, norm = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    diff = std::max(diff, std::abs(a[k] - b[k]));
    norm = std::max(norm, std::abs(b[k]));
  }
  return diff / norm;
}

TEST(CsrMatrix, StructureHoldsTheNeighboursInsideTheGrid) {
  for (const Grid& g : kGrids) {
    SCOPED_TRACE(g.str());
    const ch07b::CsrMatrix m = ch07b::csr_from_diagonals(gpgpu::jacobi::assemble_bidomain(g).A);
    ASSERT_EQ(m.rows, g.nodes());
    ASSERT_EQ(m.row_offsets.size(), static_cast<std::size_t>(g.nodes()) + 1);
    EXPECT_EQ(m.row_offsets.front(), 0);
    EXPECT_EQ(m.nonzeros(), ch07b::stencil_nonzeros(g));
    EXPECT_EQ(m.row_offsets.back(), m.nonzeros());
    EXPECT_EQ(m.columns.size(), m.values.size());
    for (std::int64_t k = 0; k < m.rows; ++k) {
      const auto first = m.columns.begin() + m.row_offsets[static_cast<std::size_t>(k)];
      const auto last = m.columns.begin() + m.row_offsets[static_cast<std::size_t>(k) + 1];
      EXPECT_TRUE(std::is_sorted(first, last)) << "row " << k;
      EXPECT_EQ(std::adjacent_find(first, last), last) << "row " << k;  // no column twice
      EXPECT_NE(std::find(first, last, static_cast<std::int32_t>(k)), last) << "row " << k << " lacks its diagonal";
      const int i = static_cast<int>(k % g.nx), j = static_cast<int>(k / g.nx);
      for (auto c = first; c != last; ++c) {  // every column is a neighbour inside the grid
        EXPECT_GE(*c, 0);
        EXPECT_LT(*c, g.nodes());
        EXPECT_LE(std::abs(*c % g.nx - i), 1) << "row " << k << " column " << *c;
        EXPECT_LE(std::abs(*c / g.nx - j), 1) << "row " << k << " column " << *c;
      }
    }
  }
  EXPECT_EQ(ch07b::stencil_nonzeros({4096, 4096}), 9LL * 4096 * 4096 - 12 * 4096 + 4);
}

TEST(CsrMatrix, ProductEqualsTheStencilsProduct) {
  for (const Grid& g : kGrids) {
    SCOPED_TRACE(g.str());
    const auto sys = gpgpu::jacobi::assemble_bidomain(g);
    const auto guess = gpgpu::jacobi::checks::random_guess(g.nodes(), 5);
    const std::vector<double> x(guess.begin(), guess.end());
    const auto expected = gpgpu::jacobi::apply_matrix(sys.A, x);
    EXPECT_LE(relative_difference(ch07b::multiply(ch07b::csr_from_diagonals(sys.A), x), expected), 1e-12);
  }
}

TEST(CsrMatrix, IterationMatrixTakesOneWeightedJacobiStep) {
  for (const Grid& g : kGrids) {
    for (double omega : {gpgpu::jacobi::kDefaultOmega, 0.5}) {
      SCOPED_TRACE(g.str() + ", omega " + std::to_string(omega));
      const auto sys = gpgpu::jacobi::assemble_bidomain(g);
      const auto x0 = gpgpu::jacobi::checks::random_guess(g.nodes(), 6);
      const ch07b::JacobiCsr jc = ch07b::jacobi_iteration_csr(sys, omega);
      std::vector<double> next = ch07b::multiply(jc.M, std::vector<double>(x0.begin(), x0.end()));
      for (std::size_t k = 0; k < next.size(); ++k) next[k] += jc.c[k];
      // M's entries and c are rounded to float once: a few units of 2^-24 relative to the largest value.
      EXPECT_LE(relative_difference(next, gpgpu::jacobi::jacobi_reference(sys, x0, 1, omega)), 1e-6);
    }
  }
}

}  // namespace
