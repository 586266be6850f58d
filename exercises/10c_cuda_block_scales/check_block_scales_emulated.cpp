// The CPU check of exercise 10c (label cpu, no GPU needed): e4m3_scale_of against the rule
// (checks::reference_scale) on every kind of largest value, and the kernel, unchanged, run on
// the CPU emulation of the CUDA thread model (kernels/matrix/cuda/tests/matrix_emulation.hpp: a
// block's threads meet at every __syncthreads(), run in thread order or its reverse by block and
// barrier phase, so a reduction that reads another thread's value without a barrier reads a stale
// one in some block), every block's scale against the rule's at A's and B's block shapes with
// partial blocks and at blocks wider than a CUDA block's threads. The scales arrays are NaN before the kernel runs and followed by a NaN guard.
#include "matrix/cuda/tests/matrix_emulation.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#define GPGPU_CUDA_EMULATION
#include <block_scales.cu>  // the student's file (exercises/ or solutions/: the include path decides)

#include "block_scales_checks.hpp"

namespace {

namespace checks = ex10c::checks;

TEST(E4m3ScaleOf, IsTheRulesPowerOfTwoForEveryLargestValue) {
  for (const float amax : checks::amax_values())
    ASSERT_EQ(ex10c::e4m3_scale_of(amax), checks::reference_scale(amax)) << "amax = " << std::hexfloat << amax;
}

class BlockScalesEmulated : public ::testing::TestWithParam<checks::Case> {};

TEST_P(BlockScalesEmulated, EveryBlockGetsItsScale) {
  const checks::Case c = GetParam();
  const std::vector<float> x = checks::matrix(c);
  const std::vector<float> want = checks::expected_scales(c, x);
  std::vector<float> got(want.size() + 1, NAN);  // the last one a guard: no block may write past its scale
  emu::launch_with_barriers(dim3(static_cast<unsigned>(want.size())), dim3(ex10c::kThreads), [&] {
    ex10c::block_scales(x.data(), c.rows, c.cols, c.block_rows, c.block_cols, got.data());
  });
  for (std::size_t b = 0; b < want.size(); ++b)
    ASSERT_EQ(got[b], want[b]) << c.str() << ", block " << b << " (row " << b / c.col_blocks() << ", column " << b % c.col_blocks() << ")";
  EXPECT_TRUE(std::isnan(got.back())) << c.str() << ": something wrote past the last scale";
}

INSTANTIATE_TEST_SUITE_P(Ex10c, BlockScalesEmulated, ::testing::ValuesIn(checks::cases()), [](const auto& info) { return info.param.name(); });

}  // namespace
