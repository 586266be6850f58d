// Chapter 10's CPU variants (label cpu): within γ_k|A||B| of the FP64 reference at the awkward
// sizes in float and double, C poisoned before every run.
#include <memory>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "variants.hpp"

namespace {

using gpgpu::blas::ElementType;
namespace checks = gpgpu::blas::checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cpu_opener()->open();
  return *s;
}

class CpuVariant : public ::testing::TestWithParam<gpgpu::blas::GemmVariant> {};

TEST_P(CpuVariant, WithinTheBoundAtAwkwardSizes) {
  for (ElementType t : checks::kTypes)
    for (const gpgpu::blas::Dims& d : checks::awkward_dims()) EXPECT_TRUE(checks::runs_within_bound(GetParam(), d, t, session()));
}

INSTANTIATE_TEST_SUITE_P(Ch10, CpuVariant, ::testing::ValuesIn(ch10::cpu_variants()),
                         [](const auto& info) { return info.param.info.name; });

TEST(CpuVariants, ThePapersRowIsOneThreadAndRefusesHugeProducts) {
  const auto variants = ch10::cpu_variants();
  ASSERT_EQ(variants.front().info.name, "cpu_naive");
  EXPECT_EQ(variants.front().info.threads, 1);
  EXPECT_EQ(variants.front().info.paper_name, "CPU");
  EXPECT_FALSE(variants.front().limitation({{512, 512, 512}, ElementType::f32}, session()));
  EXPECT_TRUE(variants.front().limitation({{1024, 1024, 1024}, ElementType::f32}, session()));
}

#if GPGPU_HAVE_OPENBLAS
TEST(CpuVariants, OpenBlasIsTheLibraryPeer) {
  const auto variants = ch10::cpu_variants();
  ASSERT_EQ(variants.size(), 2u);
  EXPECT_EQ(variants.back().info.name, "cpu_openblas");
  EXPECT_TRUE(variants.back().library);
}
#endif

}  // namespace
