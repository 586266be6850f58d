// The GPU check of exercise 09 (label cuda): the swizzled tile transposes every awkward shape and a
// matrix beyond the L2 exactly (the output NaN before the launch), uses exactly 32 x 32 floats of
// shared memory (no padding), and swizzled_column gives every element a place of its own without
// bank conflicts.
#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/matrix/checks.hpp"
#include "swizzle_checks.hpp"
#include "transpose_swizzled.hpp"

namespace {

using gpgpu::matrix::ElementType;
using gpgpu::matrix::HostMatrix;
using gpgpu::matrix::Shape;

HostMatrix transpose_on_gpu(const HostMatrix& in) {
  const auto n = static_cast<std::size_t>(in.shape().elements());
  gpgpu::cuda::DeviceBuffer<float> a(n), out(n);
  a.upload(in.as<float>());
  out.fill_bytes(0xFF);  // NaN: an element the kernel does not write fails
  ex09::launch_transpose_swizzled(a.get(), out.get(), static_cast<int>(in.shape().rows), static_cast<int>(in.shape().cols));
  return HostMatrix(in.shape().transposed(), out.download(0, n));
}

TEST(SwizzledIndex, GivesEveryElementAPlaceOfItsOwn) { EXPECT_TRUE(ex09::checks::every_element_has_a_place_of_its_own()); }

TEST(SwizzledIndex, HasNoBankConflicts) { EXPECT_TRUE(ex09::checks::no_bank_conflicts()); }

TEST(SwizzledTile, UsesNoPadding) { EXPECT_EQ(ex09::transpose_swizzled_shared_bytes(), ex09::kTile * ex09::kTile * 4); }

class SwizzledTile : public ::testing::TestWithParam<Shape> {};  // device 0: opened by the test main

TEST_P(SwizzledTile, TransposesExactly) {
  const HostMatrix in = gpgpu::matrix::random_matrix(GetParam(), ElementType::f32, 31);
  const gpgpu::Verification v = gpgpu::matrix::compare(transpose_on_gpu(in), gpgpu::matrix::transpose_reference(in));
  EXPECT_TRUE(v.pass) << GetParam().str() << ": " << v.summary();
}

std::vector<Shape> shapes() {
  std::vector<Shape> s = gpgpu::matrix::checks::awkward_shapes();
  s.push_back(gpgpu::matrix::checks::kBeyondL2);
  return s;
}

INSTANTIATE_TEST_SUITE_P(Shapes, SwizzledTile, ::testing::ValuesIn(shapes()),
                         [](const auto& info) { return info.param.str(); });

}  // namespace
