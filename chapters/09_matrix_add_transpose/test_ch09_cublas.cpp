// cuBLAS geam beside chapter 09's kernels (label cuda; built when CMake finds CUDA::cublas): the add
// and the transpose against the CPU reference, bit for bit, at the awkward shapes in float and
// double and beyond the L2; int is refused (cuBLAS has no integer geam).
#include <memory>

#include <gtest/gtest.h>

#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/matrix/checks.hpp"
#include "variants.hpp"

namespace {

using gpgpu::matrix::ElementType;
namespace checks = gpgpu::matrix::checks;

gpgpu::Session& cuda_session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cuda::open_session(0);
  return *s;
}

class Geam : public ::testing::TestWithParam<gpgpu::matrix::Variant> {};

TEST_P(Geam, MatchesTheReferenceAtAwkwardShapesInFloatAndDouble) {
  for (ElementType t : {ElementType::f32, ElementType::f64})
    for (const gpgpu::matrix::Shape& shape : checks::awkward_shapes())
      EXPECT_TRUE(checks::runs_exactly(GetParam(), shape, t, cuda_session()));
}

TEST_P(Geam, MatchesTheReferenceBeyondTheL2) {
  EXPECT_TRUE(checks::runs_exactly(GetParam(), checks::kBeyondL2, ElementType::f32, cuda_session()));
}

TEST_P(Geam, HasNoInt) {
  ASSERT_TRUE(GetParam().limitation);
  EXPECT_TRUE(GetParam().limitation({{4, 4}, ElementType::i32}, cuda_session()).has_value());
  EXPECT_FALSE(GetParam().limitation({{4, 4}, ElementType::f64}, cuda_session()).has_value());
}

INSTANTIATE_TEST_SUITE_P(Ch09, Geam, ::testing::ValuesIn(ch09::cublas_variants()),
                         [](const auto& info) { return info.param.info.name; });

}  // namespace
