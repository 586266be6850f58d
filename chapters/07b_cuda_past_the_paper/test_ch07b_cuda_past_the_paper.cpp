// Chapter 07b on a GPU (label cuda; skipped without one): the six kernels past the paper through
// their host code at the awkward sizes against the CPU double-precision reference (2D blocks with
// partial tiles, several rows per thread with a partial last strip, the symmetric kernels with only 5
// of the 9 diagonals against the nine-diagonal reference), the Solver contract, tuning that keeps the
// result correct, and the usage errors (variant_checks.hpp); a 2D block of more than 1024
// threads is refused. symmetric_prefetch and symmetric_ring give symmetric's bits (the same update on
// the same values) for every launch shape, from a NaN-poisoned written iterate (PitchedSolver::reset).
#include <cstring>
#include <string>
#include <vector>

#include "cuda_variants.hpp"
#include "gpgpu/jacobi/cuda/variant_checks.hpp"
#include "jacobi/cuda/launchers.hpp"  // kPrefetchMaxBlock, kRingMaxBlock

namespace jc = gpgpu::jacobi::cuda;

GPGPU_CUDA_VARIANT_CHECKS(Ch07b, ::testing::Values(jc::checks::Factory{"readonly", ch07b::readonly_variant},
                                                  jc::checks::Factory{"tiled2d", ch07b::tiled2d_variant},
                                                  jc::checks::Factory{"multirow", ch07b::multirow_variant, true},
                                                  jc::checks::Factory{"symmetric", ch07b::symmetric_variant, true},
                                                  jc::checks::Factory{"symmetric_prefetch", ch07b::symmetric_prefetch_variant, true},
                                                  jc::checks::Factory{"symmetric_ring", ch07b::symmetric_ring_variant, true}));

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
                                        jc::checks::Factory{"symmetric", ch07b::symmetric_variant, true},
                                        jc::checks::Factory{"symmetric_prefetch", ch07b::symmetric_prefetch_variant, true},
                                        jc::checks::Factory{"symmetric_ring", ch07b::symmetric_ring_variant, true}}) {
    EXPECT_EQ(jc::checks::solver(f, sys, launch)->launch().rfind("block 128, 4 columns x 3 rows per thread, ", 0), 0u);
    EXPECT_NE(jc::checks::solver(f, sys)->launch().find(" rows per thread"), std::string::npos);
  }
}

// `iters` iterations of a variant from x0 with a fixed launch; the solution.
std::vector<float> solve(const jc::checks::Factory& f, const gpgpu::jacobi::LinearSystem& sys, const std::vector<float>& x0,
                         int iters, const jc::LaunchOptions& launch) {
  const auto s = jc::checks::solver(f, sys, launch);
  s->reset(x0);
  s->iterate(iters, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
  return s->solution();
}

TEST(Ch07bPrefetchAndRing, GiveTheSymmetricKernelsBitsForEveryLaunch) {
  // One node, one row, one column, primes, a partial last strip, more strips than gridDim.y (3 x 70000
  // at 1 row per thread: the strip loop runs), and strips of 1 row (nothing to prefetch) to 16; blocks
  // that are not whole warps, and a last block with threads past the right edge (the ring's copies of
  // the right halo column by the last thread with columns).
  const jc::checks::Factory symmetric{"symmetric", ch07b::symmetric_variant, true};
  struct Shape {
    int block, rows;
  };
  for (const gpgpu::jacobi::Grid g : {gpgpu::jacobi::Grid{1, 1}, gpgpu::jacobi::Grid{1, 97}, gpgpu::jacobi::Grid{97, 1},
                                      gpgpu::jacobi::Grid{2, 7}, gpgpu::jacobi::Grid{97, 61}, gpgpu::jacobi::Grid{4097, 33},
                                      gpgpu::jacobi::Grid{3, 70000}}) {
    const auto sys = gpgpu::jacobi::assemble_bidomain(g);
    const auto x0 = gpgpu::jacobi::checks::random_guess(g.nodes(), 23);
    jc::LaunchOptions fixed;
    fixed.block = 128;
    fixed.rows_per_thread = 1;
    const std::vector<float> want = solve(symmetric, sys, x0, 5, fixed);
    EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(want, sys, x0, 5)) << g.str();
    for (const jc::checks::Factory f : {jc::checks::Factory{"symmetric_prefetch", ch07b::symmetric_prefetch_variant, true},
                                          jc::checks::Factory{"symmetric_ring", ch07b::symmetric_ring_variant, true}})
      for (const Shape shape : {Shape{64, 1}, Shape{96, 2}, Shape{256, 3}, Shape{128, 5}, Shape{32, 16}, Shape{1, 4},
                                Shape{200, 7}, Shape{7, 2}}) {
        jc::LaunchOptions launch;
        launch.block = shape.block;
        launch.rows_per_thread = shape.rows;
        const std::vector<float> got = solve(f, sys, x0, 5, launch);
        ASSERT_EQ(got.size(), want.size());
        EXPECT_EQ(0, std::memcmp(got.data(), want.data(), want.size() * sizeof(float)))
            << f.name << " on " << g.str() << ", block " << shape.block << ", " << shape.rows << " rows per thread";
      }
  }
}

TEST(Ch07bPrefetchAndRing, RefuseBlocksBeyondTheirLaunchBounds) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({8, 8});
  struct Bounded {
    jc::checks::Factory factory;
    int max_block;
  };
  for (const Bounded b : {Bounded{{"symmetric_prefetch", ch07b::symmetric_prefetch_variant, true}, jc::kPrefetchMaxBlock},
                          Bounded{{"symmetric_ring", ch07b::symmetric_ring_variant, true}, jc::kRingMaxBlock}}) {
    jc::LaunchOptions launch;
    launch.block = b.max_block + 32;
    EXPECT_THROW((void)jc::checks::solver(b.factory, sys, launch), gpgpu::UsageError) << b.factory.name;
    launch.block = b.max_block;
    EXPECT_NO_THROW((void)jc::checks::solver(b.factory, sys, launch)) << b.factory.name;
  }
}

}  // namespace
