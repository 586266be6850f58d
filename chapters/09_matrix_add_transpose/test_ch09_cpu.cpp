// Chapter 09's CPU variants (label cpu): against the CPU reference, bit for bit, at the awkward
// shapes in every element type and beyond the last-level cache, on one and on two threads.
#include <memory>

#include <gtest/gtest.h>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/matrix/checks.hpp"
#include "variants.hpp"

namespace {

using gpgpu::matrix::ElementType;
namespace checks = gpgpu::matrix::checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cpu_opener()->open();
  return *s;
}

class CpuVariant : public ::testing::TestWithParam<gpgpu::matrix::Variant> {};

TEST_P(CpuVariant, MatchesTheReferenceAtAwkwardShapesInEveryType) {
  for (ElementType t : checks::kTypes)
    for (const gpgpu::matrix::Shape& shape : checks::awkward_shapes())
      EXPECT_TRUE(checks::runs_exactly(GetParam(), shape, t, session()));
}

TEST_P(CpuVariant, MatchesTheReferenceBeyondTheCache) {
  EXPECT_TRUE(checks::runs_exactly(GetParam(), checks::kBeyondL2, ElementType::f32, session()));
}

INSTANTIATE_TEST_SUITE_P(Ch09, CpuVariant, ::testing::ValuesIn(ch09::cpu_variants()),
                         [](const auto& info) { return info.param.info.name; });

TEST(CpuVariants, ThePapersRowRunsOnOneThread) {
  const auto variants = ch09::cpu_variants();
  ASSERT_EQ(variants.front().info.name, "cpu_add");
  EXPECT_EQ(variants.front().info.threads, 1);
  EXPECT_EQ(variants.front().info.paper_name, "CPU");
  const auto op = variants.front().make(gpgpu::matrix::random_inputs({{4, 4}, ElementType::i32}, 1), session());
  EXPECT_EQ(op->launch(), "1 thread");
}

}  // namespace
