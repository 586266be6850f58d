// The CPU check of exercise 09 (label cpu, no GPU needed): swizzled_column gives every element a
// place of its own without bank conflicts, and the kernel, unchanged, run on the CPU emulation of the
// CUDA thread model (kernels/matrix/cuda/tests/matrix_emulation.hpp), transposes awkward shapes
// exactly. It says nothing about speed; the GPU check and Nsight Compute do.
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
