// The split of rows over parts, checked without a GPU: every row in exactly one part, in order,
// as even as it goes, the ghost ranges clipped to the grid, and what cannot be split refused.
#include <gtest/gtest.h>

#include <vector>

#include "decomposition.hpp"
#include "gpgpu/errors.hpp"

namespace ch13 {
namespace {

TEST(Decomposition, EveryRowInExactlyOnePartInOrderAndEven) {
  for (int rows : {1, 2, 3, 7, 16, 17, 1023, 4097})
    for (int parts = 1; parts <= std::min(rows, 9); ++parts) {
      const Decomposition d(rows, parts);
      int next = 0, smallest = rows, largest = 0;
      for (int p = 0; p < parts; ++p) {
        const RowRange r = d.part(p);
        EXPECT_EQ(r.begin, next) << rows << " rows, " << parts << " parts, part " << p;
        EXPECT_GE(r.count(), 1);
        smallest = std::min(smallest, r.count());
        largest = std::max(largest, r.count());
        next = r.end;
      }
      EXPECT_EQ(next, rows);
      EXPECT_LE(largest - smallest, 1) << rows << " rows, " << parts << " parts";
    }
}

TEST(Decomposition, NeighboursAndGhostRowsClippedToTheGrid) {
  const Decomposition d(10, 3);  // 4, 3, 3 rows
  EXPECT_EQ(d.part(0), (RowRange{0, 4}));
  EXPECT_EQ(d.part(1), (RowRange{4, 7}));
  EXPECT_EQ(d.part(2), (RowRange{7, 10}));
  EXPECT_FALSE(d.has_below(0));
  EXPECT_TRUE(d.has_above(0));
  EXPECT_TRUE(d.has_below(2));
  EXPECT_FALSE(d.has_above(2));
  EXPECT_EQ(d.with_ghosts(0, 1), (RowRange{0, 5}));
  EXPECT_EQ(d.with_ghosts(1, 1), (RowRange{3, 8}));
  EXPECT_EQ(d.with_ghosts(2, 2), (RowRange{5, 10}));
  const Decomposition one_row_each(3, 3);
  EXPECT_EQ(one_row_each.with_ghosts(1, 2), (RowRange{0, 3}));
}

TEST(Decomposition, RowsOfAFieldAreTheRowsOfThePart) {
  const int nx = 5, ny = 7;
  std::vector<float> field(nx * ny);
  for (std::size_t k = 0; k < field.size(); ++k) field[k] = static_cast<float>(k) - 11.5f;
  const Decomposition d(ny, 2);
  const std::span<const float> rows = rows_of(field, nx, d.with_ghosts(1, 1));
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(nx * (ny - 3)));
  EXPECT_EQ(rows.front(), field[3 * nx]);
  EXPECT_EQ(rows.back(), field.back());
}

TEST(Decomposition, RefusesMorePartsThanRowsAndNoParts) {
  EXPECT_THROW(Decomposition(2, 3), gpgpu::UsageError);
  EXPECT_THROW(Decomposition(5, 0), gpgpu::UsageError);
  EXPECT_NO_THROW(Decomposition(3, 3));
}

}  // namespace
}  // namespace ch13
