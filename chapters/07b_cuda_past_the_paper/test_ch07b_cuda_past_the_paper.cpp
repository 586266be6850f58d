// Chapter 07b on a GPU (label cuda; skipped without one): the four kernels past the paper through
// their host code at the awkward sizes against the CPU double-precision reference (2D blocks with
// partial tiles, several rows per thread with a partial last strip, the symmetric kernel with only 5
// of the 9 diagonals against the nine-diagonal reference), the Solver contract, tuning that keeps the
// result correct, and the usage errors (variant_checks.hpp); a 2D block of more than 1024
// threads is refused.
#include "gpgpu/jacobi/cuda/variant_checks.hpp"
#include "cuda_variants.hpp"

namespace jc = gpgpu::jacobi::cuda;

GPGPU_CUDA_VARIANT_CHECKS(Ch07b, ::testing::Values(jc::checks::Factory{"readonly", ch07b::readonly_variant},
                                                  jc::checks::Factory{"tiled2d", ch07b::tiled2d_variant},
                                                  jc::checks::Factory{"multirow", ch07b::multirow_variant, true},
                                                  jc::checks::Factory{"symmetric", ch07b::symmetric_variant, true}));

namespace {

TEST(Ch07bTiled2d, RefusesABlockOfMoreThan1024Threads) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({8, 8});
  jc::LaunchOptions launch;
  launch.block = 64;
  launch.block_y = 32;
  EXPECT_THROW((void)jc::checks::solver({"tiled2d", ch07b::tiled2d_variant}, sys, launch), gpgpu::UsageError);
  launch.block_y = 16;
  EXPECT_EQ(jc::checks::solver({"tiled2d", ch07b::tiled2d_variant}, sys, launch)->launch().rfind("block 64x16, ", 0), 0u);
}

TEST(Ch07bRowWalking, RowsPerThreadFromTheOptionsOrTheOccupancy) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({1024, 1024});
  jc::LaunchOptions launch;
  launch.rows_per_thread = 3;
  for (const jc::checks::Factory f : {jc::checks::Factory{"multirow", ch07b::multirow_variant, true},
                                        jc::checks::Factory{"symmetric", ch07b::symmetric_variant, true}}) {
    EXPECT_EQ(jc::checks::solver(f, sys, launch)->launch().rfind("block 128, 4 columns x 3 rows per thread, ", 0), 0u);
    EXPECT_NE(jc::checks::solver(f, sys)->launch().find(" rows per thread"), std::string::npos);
  }
}

}  // namespace
