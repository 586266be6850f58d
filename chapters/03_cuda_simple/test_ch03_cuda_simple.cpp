// Chapter 03 on a GPU (label cuda; skipped without one): the simple kernel through chapter 03's host
// code at the awkward sizes against the CPU double-precision reference, the Solver contract, and the
// usage errors (cuda_variant_checks.hpp); the launch it reports is the paper's layout.
#include "cuda_variant_checks.hpp"
#include "simple_variant.hpp"

CH03_CUDA_VARIANT_CHECKS(Ch03, ::testing::Values(ch03::checks::Factory{"simple", ch03::simple_variant}));

namespace {

TEST(Ch03Simple, LaunchesOneThreadPerUnknownBehindNxPlusOneGhosts) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({100, 7});
  EXPECT_EQ(ch03::checks::solver({"simple", ch03::simple_variant}, sys)->launch(), "grid 11, block 64, ghost offset 101");
  ch03::LaunchOptions launch;
  launch.block = 96;
  EXPECT_EQ(ch03::checks::solver({"simple", ch03::simple_variant}, sys, launch)->launch(),
            "grid 8, block 96, ghost offset 101");
}

}  // namespace
