// Chapter 03 on a GPU (label cuda; skipped without one): the simple kernel through chapter 03's host
// code at the awkward sizes against the CPU double-precision reference, the Solver contract, and the
// usage errors (variant_checks.hpp); the launch it reports is the paper's layout.
#include "gpgpu/jacobi/cuda/variant_checks.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"

namespace jc = gpgpu::jacobi::cuda;

GPGPU_CUDA_VARIANT_CHECKS(Ch03, ::testing::Values(jc::checks::Factory{"simple", jc::simple_variant}));

namespace {

TEST(Ch03Simple, LaunchesOneThreadPerUnknownBehindNxPlusOneGhosts) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({100, 7});
  EXPECT_EQ(jc::checks::solver({"simple", jc::simple_variant}, sys)->launch(), "grid 11, block 64, ghost offset 101");
  jc::LaunchOptions launch;
  launch.block = 96;
  EXPECT_EQ(jc::checks::solver({"simple", jc::simple_variant}, sys, launch)->launch(),
            "grid 8, block 96, ghost offset 101");
}

}  // namespace
