// Storage layouts: interleaved rows hold the same coefficients, ghost padding keeps the unknowns
// in place with zero ghosts, and the aligned offset is the paper's rounding.
#include <gtest/gtest.h>

#include "gpgpu/jacobi/layouts.hpp"
#include "test_support.hpp"

namespace gpgpu::jacobi {
namespace {

TEST(Layouts, InterleavedRowsHoldEveryCoefficientInDiagonalOrder) {
  const LinearSystem sys = assemble_bidomain({17, 9});
  const std::vector<float> rows = interleave_rows(sys.A);
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(9 * sys.grid.nodes()));
  for (std::int64_t k = 0; k < sys.grid.nodes(); ++k)
    for (Dir d : kAllDirs) ASSERT_EQ(rows[static_cast<std::size_t>(9 * k + idx(d))], sys.A.at(d, k));
}

TEST(Layouts, GhostPaddedVectorKeepsUnknownsAndZeroGhosts) {
  const Grid g{13, 6};
  const auto values = checks::random_guess(g.nodes(), 7, -1.0f, 1.0f);
  const auto v = make_ghost_padded<float>(g, values, simple_offset(g));
  EXPECT_EQ(v.offset, 14);
  ASSERT_GE(static_cast<std::int64_t>(v.data.size()), g.nodes() + 2 * (g.nx + 1));
  for (std::int64_t k = 0; k < g.nodes(); ++k) ASSERT_EQ(v.interior()[k], values[static_cast<std::size_t>(k)]);
  // Every neighbour index of every unknown is inside the array and ghosts are zero.
  for (std::int64_t i = 0; i < v.offset; ++i) EXPECT_EQ(v.data[static_cast<std::size_t>(i)], 0.0f);
  for (std::size_t i = static_cast<std::size_t>(v.offset + g.nodes()); i < v.data.size(); ++i) EXPECT_EQ(v.data[i], 0.0f);
  EXPECT_GE(v.offset - (g.nx + 1), 0);
  EXPECT_LE(v.offset + g.nodes() - 1 + g.nx + 1, static_cast<std::int64_t>(v.data.size()) - 1);
}

TEST(Layouts, TotalLengthRoundsUpToTheRequestedMultiple) {
  const Grid g{5, 3};
  const auto v = make_ghost_padded_zero<float>(g, aligned_offset(g, 32), 32);
  EXPECT_EQ(v.offset, 32);
  EXPECT_EQ(v.data.size() % 32, 0u);
  EXPECT_THROW((void)make_ghost_padded_zero<float>(g, 3), std::invalid_argument);  // offset < nx+1
}

TEST(Layouts, AlignedOffsetIsThePapersRounding) {
  // offset = (nx + 1 + 15) / 16 * 16 (paper sec. 6.2)
  EXPECT_EQ(aligned_offset({511, 1}, 16), 512);
  EXPECT_EQ(aligned_offset({512, 1}, 16), 528);
  EXPECT_EQ(aligned_offset({1, 1}, 16), 16);
  EXPECT_EQ(aligned_offset({1024, 1}, 32), 1056);
  EXPECT_EQ(simple_offset({1024, 1}), 1025);
}

}  // namespace
}  // namespace gpgpu::jacobi
