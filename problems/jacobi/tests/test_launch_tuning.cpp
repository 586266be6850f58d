// Chapter 07b's tuning loop (fastest_launch): the shapes it tries, in order, and the one it keeps.
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/launch_tuning.hpp"

namespace gpgpu::jacobi {
namespace {

TEST(FastestLaunch, TriesTheFirstThenEveryBlockAndRowCountOnce) {
  std::vector<LaunchShape> tried;
  const TunedLaunch best = fastest_launch({96, 3}, 10, [&](const LaunchShape& s) {
    tried.push_back(s);
    return 1.0;
  });
  ASSERT_EQ(tried.size(), 16u);
  EXPECT_EQ(tried[0].block, 96);
  EXPECT_EQ(tried[0].rows_per_thread, 3);
  std::size_t i = 1;
  for (int block : {64, 128, 256})
    for (int rows : {1, 2, 4, 8, 16}) {
      EXPECT_EQ(tried[i].block, block);
      EXPECT_EQ(tried[i].rows_per_thread, rows);
      ++i;
    }
  // All equal: the first stays (a later shape must be strictly faster).
  EXPECT_EQ(best.shape.block, 96);
  EXPECT_EQ(best.shape.rows_per_thread, 3);
  EXPECT_EQ(best.tried, 16);
}

TEST(FastestLaunch, KeepsTheFastestAndSaysSo) {
  const TunedLaunch best = fastest_launch({128, 0}, 20, [](const LaunchShape& s) {
    return s.block == 256 && s.rows_per_thread == 2 ? 0.001 : 0.002 + 1e-6 * s.rows_per_thread;
  });
  EXPECT_EQ(best.shape.block, 256);
  EXPECT_EQ(best.shape.rows_per_thread, 2);
  EXPECT_DOUBLE_EQ(best.seconds, 0.001);
  EXPECT_EQ(best.text, "block 256, 2 rows per thread: 0.0500 ms/iter, fastest of 16 configurations x 20 iterations");
}

TEST(FastestLaunch, TheRuleWhenTheFirstShapeWins) {
  const TunedLaunch best = fastest_launch({128, 0}, 4, [](const LaunchShape& s) { return s.rows_per_thread == 0 ? 1.0 : 2.0; });
  EXPECT_EQ(best.shape.rows_per_thread, 0);
  EXPECT_EQ(best.text.rfind("block 128, rows per thread by chapter 07b's rule: 250.0000 ms/iter", 0), 0u) << best.text;
}

}  // namespace
}  // namespace gpgpu::jacobi
