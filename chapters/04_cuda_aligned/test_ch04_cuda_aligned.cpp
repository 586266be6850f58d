// Chapter 04 on a GPU (label cuda; skipped without one): both aligned variants through chapter 03's
// host code at the awkward sizes against the CPU double-precision reference, the Solver contract and
// the usage errors (variant_checks.hpp); the offset each one reports is the smallest multiple of
// its alignment past the nx+1 ghosts.
#include "gpgpu/jacobi/cuda/linear_solver.hpp"
#include "gpgpu/jacobi/cuda/variant_checks.hpp"

namespace jc = gpgpu::jacobi::cuda;

GPGPU_CUDA_VARIANT_CHECKS(Ch04, ::testing::Values(jc::checks::Factory{"aligned", jc::aligned_variant},
                                                 jc::checks::Factory{"aligned32", jc::aligned32_variant}));

namespace {

TEST(Ch04Aligned, GhostOffsetIsTheNextMultipleOfTheAlignment) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({100, 7});  // nx+1 = 101
  EXPECT_EQ(jc::checks::solver({"aligned", jc::aligned_variant}, sys)->launch(), "grid 11, block 64, ghost offset 112");
  EXPECT_EQ(jc::checks::solver({"aligned32", jc::aligned32_variant}, sys)->launch(),
            "grid 11, block 64, ghost offset 128");
}

}  // namespace
