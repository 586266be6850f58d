// Chapter 09's OpenCL variants on the test's OpenCL device (label opencl; PoCL in CI, a GPU through
// GPGPU_CL_TYPE=gpu): every variant against the CPU reference, bit for bit, at the awkward shapes in
// every element type and at a size beyond the L2, with the output poisoned first; the launch shapes.
#include <algorithm>
#include <memory>

#include <gtest/gtest.h>

#include "gpgpu/matrix/checks.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/opencl/opener.hpp"
#include "opencl_variants.hpp"

namespace {

using gpgpu::matrix::ElementType;
using gpgpu::matrix::Shape;
namespace checks = gpgpu::matrix::checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::ocl::open_session(gpgpu::ocl::device_options_from_environment());
  return *s;
}

const gpgpu::matrix::Variant& variant(const std::string& name) {
  static const std::vector<gpgpu::matrix::Variant> variants = ch09::opencl_variants();
  for (const auto& v : variants)
    if (v.info.name == name) return v;
  throw std::out_of_range(name);
}

std::vector<std::string> names() {
  std::vector<std::string> n;
  for (const gpgpu::matrix::Variant& v : ch09::opencl_variants()) n.push_back(v.info.name);
  return n;
}

class ClVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(ClVariant, MatchesTheReferenceAtAwkwardShapesInEveryType) {
  const gpgpu::matrix::Variant& v = variant(GetParam());
  for (ElementType t : checks::kTypes) {
    if (const auto why = v.limitation({{1, 1}, t}, session())) {
      GTEST_LOG_(INFO) << GetParam() << " " << gpgpu::matrix::type_name(t) << " skipped: " << *why;
      continue;
    }
    for (const Shape& shape : checks::awkward_shapes()) EXPECT_TRUE(checks::runs_exactly(v, shape, t, session()));
  }
}

TEST_P(ClVariant, MatchesTheReferenceBeyondTheL2) {
  EXPECT_TRUE(checks::runs_exactly(variant(GetParam()), checks::kBeyondL2, ElementType::f32, session()));
}

TEST_P(ClVariant, RefusesMatricesTheDeviceCannotHold) {
  const gpgpu::matrix::Variant& v = variant(GetParam());
  ASSERT_TRUE(v.check_fits);
  EXPECT_THROW(v.check_fits({{100000, 100000}, ElementType::f64}, session()), gpgpu::UsageError);  // 80 GB per matrix
  EXPECT_NO_THROW(v.check_fits({{64, 64}, ElementType::f64}, session()));
}

// The limitation is what the device says, judged by cl_limitation (whose verdicts on other devices'
// limits test_ch09_specs checks without a device).
TEST_P(ClVariant, ItsLimitationIsTheDevicesLimits) {
  const ch09::ClVariant& cl = ch09::cl_variant(GetParam());
  gpgpu::ocl::Runtime& runtime = gpgpu::ocl::runtime_of(session());
  for (ElementType t : checks::kTypes)
    EXPECT_EQ(variant(GetParam()).limitation({{1, 1}, t}, session()),
              ch09::cl_limitation(cl, t, ch09::cl_kernel_limits(cl, t, runtime)));
}

TEST_P(ClVariant, MatchesTheReferenceWhereRowsAreWholeVectors) {
  // The shapes on which cl_transpose_tile_vec4, _panels and _persistent take their 16-byte path; any
  // variant must pass them. On a CPU device of few compute units each persistent group loops over tiles.
  const gpgpu::matrix::Variant& v = variant(GetParam());
  for (ElementType t : checks::kTypes) {
    if (v.limitation({{1, 1}, t}, session())) continue;  // MatchesTheReferenceAtAwkwardShapesInEveryType says why
    for (const Shape& shape : checks::whole_vector_shapes()) EXPECT_TRUE(checks::runs_exactly(v, shape, t, session()));
  }
}

INSTANTIATE_TEST_SUITE_P(Ch09, ClVariant, ::testing::ValuesIn(names()), [](const auto& info) { return info.param; });

TEST(ClLaunch, CoversTheMatrixInWholeWorkGroups) {
  const ch09::ClLaunch a = ch09::cl_launch(ch09::ClGrid::rows_cols, {17, 1023}, ElementType::f32);
  EXPECT_EQ(a.str(), "global 1024 x 24, local 32 x 8");
  const ch09::ClLaunch t = ch09::cl_launch(ch09::ClGrid::tiles_multi, {4097, 33}, ElementType::f32);
  EXPECT_EQ(t.str(), "global 64 x 1032, local 32 x 8");  // 2 x 129 tiles of 32 x 32, 8 work-item rows each
  const ch09::ClLaunch v = ch09::cl_launch(ch09::ClGrid::tiles_vec4, {4097, 33}, ElementType::f32);
  EXPECT_EQ(v.str(), "global 8 x 260 x 8, local 8 x 4 x 8");  // 1 x 65 tiles of 64 x 64
  // The persistent groups: four per compute unit (132 on the H200), at most one per tile.
  const auto persistent = [](const Shape& s) {
    return ch09::cl_launch(ch09::ClGrid::persistent, s, ElementType::f32, ch09::kClFlatMaxItems, 132).str();
  };
  EXPECT_EQ(persistent({8192, 8192}), "global 4224 x 4 x 8, local 8 x 4 x 8");  // 528 groups for 16384 tiles
  EXPECT_EQ(persistent({4097, 33}), "global 520 x 4 x 8, local 8 x 4 x 8");     // 65 tiles, a group each
  // The strips of 09_14: 64 rows x 512 bytes, 128 floats or 64 doubles across.
  const auto strips = [](const Shape& s, ElementType t) { return ch09::cl_launch(ch09::ClGrid::strips, s, t).str(); };
  EXPECT_EQ(strips({8192, 8192}, ElementType::f32), "global 512 x 512 x 8, local 8 x 4 x 8");   // 64 x 128 strips
  EXPECT_EQ(strips({8192, 8192}, ElementType::f64), "global 1024 x 512 x 8, local 8 x 4 x 8");  // 128 x 128
  EXPECT_EQ(strips({4097, 129}, ElementType::f32), "global 16 x 260 x 8, local 8 x 4 x 8");     // 2 x 65, cut at both edges
  const ch09::ClLaunch f = ch09::cl_launch(ch09::ClGrid::flat, {1, 3}, ElementType::f64);
  EXPECT_EQ(f.str(), "global 256, local 256");  // no vector at all: one group for the tail
}

TEST(ClLaunch, GivesTheFlatAddAWorkItemPerVectorUpToItsCap) {
  // 4097 x 33 floats: 33 800 vectors and a tail of 1 element, in 133 groups of 256.
  EXPECT_EQ(ch09::cl_launch(ch09::ClGrid::flat, {4097, 33}, ElementType::f32).str(), "global 34048, local 256");
  // 8192² floats: 2^24 vectors, a work-item each.
  EXPECT_EQ(ch09::cl_launch(ch09::ClGrid::flat, {8192, 8192}, ElementType::f32).str(), "global 16777216, local 256");
  // 16384² floats: 2^26 vectors, capped at 2^25 work-items of two vectors each.
  EXPECT_EQ(ch09::cl_launch(ch09::ClGrid::flat, {16384, 16384}, ElementType::f32).str(), "global 33554432, local 256");
  // A cap below one group still launches one; others round down to whole groups.
  EXPECT_EQ(ch09::cl_launch(ch09::ClGrid::flat, {4097, 33}, ElementType::f32, 1).str(), "global 256, local 256");
  EXPECT_EQ(ch09::cl_launch(ch09::ClGrid::flat, {4097, 33}, ElementType::f32, 1000).str(), "global 768, local 256");
}

// The default NDRange strides only past 2^25 vectors (a 1 GiB float matrix); one group of 256
// work-items makes every work-item stride, tail included, at every shape and type.
TEST(ClAddVec4, MatchesTheReferenceWhenEveryWorkItemStrides) {
  const gpgpu::matrix::Variant s = ch09::opencl_variant(ch09::cl_variant("cl_add_vec4"), 256);
  for (ElementType t : checks::kTypes) {
    if (const auto why = s.limitation({{1, 1}, t}, session())) {
      GTEST_LOG_(INFO) << "cl_add_vec4 " << gpgpu::matrix::type_name(t) << " skipped: " << *why;
      continue;
    }
    for (const Shape& shape : checks::awkward_shapes()) EXPECT_TRUE(checks::runs_exactly(s, shape, t, session()));
  }
  EXPECT_TRUE(checks::runs_exactly(s, checks::kBeyondL2, ElementType::f32, session()));
}

}  // namespace
