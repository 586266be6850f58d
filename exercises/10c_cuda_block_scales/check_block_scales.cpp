// The GPU check of exercise 10c (label cuda; skipped without a GPU): launch_block_scales on the
// device, every block's scale against the rule's (checks::reference_scale of the block's largest
// |x|) at A's and B's block shapes with partial blocks and at blocks wider than a CUDA block's threads; the scales poisoned (NaN) before the
// launch and followed by a guard that must stay NaN.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "block_scales.hpp"
#include "block_scales_checks.hpp"
#include "gpgpu/cuda/buffers.hpp"

namespace {

namespace checks = ex10c::checks;

class BlockScales : public ::testing::TestWithParam<checks::Case> {};

TEST_P(BlockScales, EveryBlockGetsItsScale) {
  const checks::Case c = GetParam();
  const std::vector<float> x = checks::matrix(c);
  const std::vector<float> want = checks::expected_scales(c, x);
  gpgpu::cuda::DeviceBuffer<float> in(x.size()), scale(want.size() + 1);
  in.upload(x);
  scale.fill_bytes(0xFF);  // NaN
  ex10c::launch_block_scales(in.get(), c.rows, c.cols, c.block_rows, c.block_cols, scale.get());
  const std::vector<float> got = scale.download(0, scale.size());
  for (std::size_t b = 0; b < want.size(); ++b) ASSERT_EQ(got[b], want[b]) << c.str() << ", block " << b;
  EXPECT_TRUE(std::isnan(got.back())) << c.str() << ": something wrote past the last scale";
}

INSTANTIATE_TEST_SUITE_P(Ex10c, BlockScales, ::testing::ValuesIn(checks::cases()), [](const auto& info) { return info.param.name(); });

}  // namespace
