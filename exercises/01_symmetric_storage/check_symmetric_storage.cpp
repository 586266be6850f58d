// The check of exercise 01, built against the skeleton (label `exercise`) and the worked answer
// (label `solution`): the packed storage keeps 5 of 9 diagonals, and the solver gives the same
// iterates as the 9-diagonal double-precision reference at awkward sizes.
#include <gtest/gtest.h>

#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "symmetric_storage.hpp"

namespace {

using gpgpu::jacobi::Dir;
using gpgpu::jacobi::Grid;
using gpgpu::jacobi::idx;


class SymmetricStorage : public ::testing::TestWithParam<Grid> {};

TEST_P(SymmetricStorage, KeepsFiveDiagonalsWithPadding) {
  const Grid g = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const ex01::SymmetricStencil S = ex01::pack_symmetric(sys.A);
  ASSERT_GE(S.offset, g.nx + 1);
  const std::pair<ex01::Upper, Dir> kept[] = {{ex01::Upper::C, Dir::C},
                                              {ex01::Upper::E, Dir::E},
                                              {ex01::Upper::NW, Dir::NW},
                                              {ex01::Upper::N, Dir::N},
                                              {ex01::Upper::NE, Dir::NE}};
  for (const auto& [u, d] : kept) {
    const auto& stored = S.diag[static_cast<std::size_t>(u)];
    ASSERT_GE(static_cast<std::int64_t>(stored.size()), S.offset + g.nodes() + g.nx + 1) << gpgpu::jacobi::name(d);
    // Memory: no more than the nine-diagonal storage's 5/9 plus the padding.
    ASSERT_LE(static_cast<std::int64_t>(stored.size()), S.offset + g.nodes() + 2 * (g.nx + 1) + 64);
    for (std::int64_t k = 0; k < g.nodes(); ++k)
      ASSERT_EQ(stored[static_cast<std::size_t>(S.offset + k)], sys.A.at(d, k)) << gpgpu::jacobi::name(d) << " k=" << k;
    for (std::int64_t i = 0; i < S.offset; ++i) ASSERT_EQ(stored[static_cast<std::size_t>(i)], 0.0f);
  }
}

TEST_P(SymmetricStorage, JacobiMatchesTheNineDiagonalReference) {
  const Grid g = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const auto S = ex01::pack_symmetric(sys.A);
  const auto x0 = gpgpu::jacobi::checks::random_guess(g.nodes(), 23, -5.0f, 5.0f);
  for (int iters : {1, 2, 37}) {
    const auto got = ex01::jacobi_symmetric(S, sys.rhs, x0, iters, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
    EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(got, sys, x0, iters));
  }
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, SymmetricStorage,
                         ::testing::Values(Grid{1, 1}, Grid{2, 7}, Grid{7, 2}, Grid{17, 33}, Grid{64, 48},
                                           Grid{17, 1023}),
                         [](const auto& info) { return info.param.str(); });

}  // namespace
