// Chapter 10's OpenCL variants (label opencl; PoCL in CI): within γ_k|A||B| of the FP64 reference
// at the awkward sizes and where rows are 16-byte aligned, in float and double (where the device has cl_khr_fp64), C poisoned first.
#include <algorithm>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"
#include "gpgpu/opencl/opener.hpp"
#include "variants.hpp"

namespace {

using gpgpu::blas::ElementType;
namespace checks = gpgpu::blas::checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::ocl::opener()->open();
  return *s;
}

class ClVariant : public ::testing::TestWithParam<gpgpu::blas::GemmVariant> {};

TEST_P(ClVariant, WithinTheBoundAtAwkwardSizes) {
  for (ElementType t : checks::kTypes) {
    if (const auto why = GetParam().limitation({{1, 1, 1}, t}, session())) {
      std::cout << "  " << GetParam().info.name << " " << gpgpu::matrix::type_name(t) << " skipped: " << *why << "\n";
      continue;
    }
    for (const gpgpu::blas::Dims& d : checks::awkward_dims()) EXPECT_TRUE(checks::runs_within_bound(GetParam(), d, t, session()));
    for (const gpgpu::blas::Dims& d : checks::aligned_dims()) EXPECT_TRUE(checks::runs_within_bound(GetParam(), d, t, session()));
  }
}

INSTANTIATE_TEST_SUITE_P(Ch10, ClVariant, ::testing::ValuesIn(ch10::opencl_variants()),
                         [](const auto& info) { return info.param.info.name; });

// cl_prefetch maps work-groups to tiles in groups of 8 tile rows (10_10_prefetch.cl's grouped_tile):
// at sizes past one group, with the last group partial, on the element path (k or n no multiple of
// 4) and on the 16-byte path, as the CUDA kernel's emulated test does.
TEST(ClPrefetch, WithinTheBoundPastOneGroup) {
  const std::vector<gpgpu::blas::GemmVariant> variants = ch10::opencl_variants();
  const auto prefetch = std::ranges::find_if(variants, [](const auto& v) { return v.info.name == "cl_prefetch"; });
  ASSERT_NE(prefetch, variants.end());
  for (ElementType t : checks::kTypes) {
    if (const auto why = prefetch->limitation({{1, 1, 1}, t}, session())) {
      std::cout << "  cl_prefetch " << gpgpu::matrix::type_name(t) << " skipped: " << *why << "\n";
      continue;
    }
    for (const gpgpu::blas::Dims& d : {gpgpu::blas::Dims{2100, 300, 9}, gpgpu::blas::Dims{1100, 77, 13},
                                       gpgpu::blas::Dims{1100, 516, 12}, gpgpu::blas::Dims{2049, 260, 8}})
      EXPECT_TRUE(checks::runs_within_bound(*prefetch, d, t, session()));
  }
}

TEST(ClVariants, EachPortsTheCudaKernelOfItsName) {
  for (const gpgpu::blas::GemmVariant& v : ch10::opencl_variants()) {
    ASSERT_TRUE(v.info.name.starts_with("cl_"));
    EXPECT_EQ(v.ports, "cuda_" + v.info.name.substr(3));
  }
}

}  // namespace
