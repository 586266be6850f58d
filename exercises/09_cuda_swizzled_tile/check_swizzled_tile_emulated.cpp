// The CPU check of exercise 09 (label cpu, no GPU needed): swizzled_column gives every element a
// place of its own without bank conflicts; the kernel, unchanged, run on the CPU emulation of the
// CUDA thread model (kernels/matrix/cuda/tests/matrix_emulation.hpp), transposes awkward shapes
// exactly; and the kernel's own shared loads and stores, recorded through SharedFloat and grouped
// into warp requests (kernels/matrix/cuda/tests/shared_banks.hpp), need one wavefront each and stay
// within an unpadded tile. It says nothing about speed; the GPU check and Nsight Compute do.
#include "matrix/cuda/tests/matrix_emulation.hpp"

#include <gtest/gtest.h>

#include "gpgpu/matrix/matrix.hpp"

#define GPGPU_CUDA_EMULATION
#include <transpose_swizzled.cu>  // the student's file (exercises/ or solutions/: the include path decides)

#include "swizzle_checks.hpp"

namespace {

using gpgpu::matrix::ElementType;
using gpgpu::matrix::HostMatrix;
using gpgpu::matrix::Shape;

HostMatrix transpose_emulated(const HostMatrix& in) {
  HostMatrix out = gpgpu::matrix::poisoned(in.shape().transposed(), in.type());
  const int rows = static_cast<int>(in.shape().rows), cols = static_cast<int>(in.shape().cols);
  const dim3 grid((cols + ex09::kTile - 1) / ex09::kTile, (rows + ex09::kTile - 1) / ex09::kTile);
  const float* a = in.as<float>().data();
  float* b = out.as<float>().data();
  emu::launch_with_barriers(grid, dim3(ex09::kTile, ex09::kRowsPerPass), [&] { ex09::transpose_swizzled(a, b, rows, cols); });
  return out;
}

TEST(SwizzledIndex, GivesEveryElementAPlaceOfItsOwn) { EXPECT_TRUE(ex09::checks::every_element_has_a_place_of_its_own()); }

TEST(SwizzledIndex, HasNoBankConflicts) { EXPECT_TRUE(ex09::checks::no_bank_conflicts()); }

TEST(SwizzledTileEmulated, KernelHasNoBankConflictsAndNoPadding) {
  // 2 x 3 full tiles, so that every warp request has 32 threads. Each tile is stored once and loaded
  // once: 2 x 32 x 32 accesses, 64 requests of a warp, 64 wavefronts when none conflicts.
  const int tiles = 2 * 3;
  const long long expected = tiles * 2LL * ex09::kTile * ex09::kTile / 32;
  emu::banks::recorder().clear();
  transpose_emulated(gpgpu::matrix::random_matrix(Shape{2 * ex09::kTile, 3 * ex09::kTile}, ElementType::f32, 5));
  const emu::banks::Tally t = emu::banks::recorder().tally();
  ASSERT_GT(t.requests, 0) << "the kernel made no shared access this check can see: keep the tile in "
                              "__shared__ SharedFloat tile[kTile][kTile], as transpose_swizzled.hpp says";
  EXPECT_LE(t.wavefronts, expected)
      << t.requests << " shared requests took " << t.wavefronts << " wavefronts (" << expected
      << " expected for " << tiles << " tiles without conflicts); the worst, a " << (t.worst_is_store ? "store" : "load")
      << ", is a " << t.worst << "-way bank conflict";
  EXPECT_EQ(t.worst, 1) << "a " << (t.worst_is_store ? "store" : "load") << " of the tile is a " << t.worst
                        << "-way bank conflict";
  EXPECT_LE(t.span_bytes(), sizeof(float) * ex09::kTile * ex09::kTile)
      << "the kernel's shared accesses span " << t.span_bytes() << " bytes: more than an unpadded "
      << ex09::kTile << " x " << ex09::kTile << " float tile";
}

class SwizzledTileEmulated : public ::testing::TestWithParam<Shape> {};

TEST_P(SwizzledTileEmulated, TransposesExactly) {
  const HostMatrix in = gpgpu::matrix::random_matrix(GetParam(), ElementType::f32, 31);
  const gpgpu::Verification v = gpgpu::matrix::compare(transpose_emulated(in), gpgpu::matrix::transpose_reference(in));
  EXPECT_TRUE(v.pass) << GetParam().str() << ": " << v.summary();
}

INSTANTIATE_TEST_SUITE_P(Shapes, SwizzledTileEmulated,
                         ::testing::Values(Shape{1, 1}, Shape{1, 37}, Shape{37, 1}, Shape{17, 103}, Shape{45, 70},
                                           Shape{64, 64}, Shape{100, 33}),
                         [](const auto& info) { return info.param.str(); });

}  // namespace
