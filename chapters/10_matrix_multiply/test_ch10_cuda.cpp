// Chapter 10's CUDA variants on the GPU (label cuda; skipped without one): every kernel and cuBLAS
// within γ_k|A||B| of the FP64 reference at the awkward sizes and at 4097 and large rectangles,
// in float and double (TF32 within its own bound), C poisoned before every run; the FMA peak is a
// positive, finite rate. compute-sanitizer runs this binary with --gtest_filter=*AtSanitizerSizes*.
#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "cuda_gemm.hpp"
#include "gpgpu/blas/checks.hpp"
#include "gpgpu/cuda/driver.hpp"

#if GPGPU_HAVE_CUBLAS
#include "cublas_gemm.hpp"
#endif

namespace {

using gpgpu::blas::ElementType;
namespace checks = gpgpu::blas::checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cuda::driver()->open();
  return *s;
}

std::vector<gpgpu::blas::VariantSpec> all_variants() {
  std::vector<gpgpu::blas::VariantSpec> v = ch10::cuda_variants();
#if GPGPU_HAVE_CUBLAS
  for (gpgpu::blas::VariantSpec& c : ch10::cublas_variants()) v.push_back(std::move(c));
#endif
  return v;
}

class CudaVariant : public ::testing::TestWithParam<gpgpu::blas::VariantSpec> {};

void run_all(const gpgpu::blas::VariantSpec& spec, const std::vector<gpgpu::blas::Dims>& sizes) {
  for (ElementType t : checks::kTypes)
    for (const gpgpu::blas::Dims& d : sizes) {
      if (spec.limitation && spec.limitation(d, t, session())) continue;
      EXPECT_TRUE(checks::runs_within_bound(spec, d, t, session()));
    }
}

TEST_P(CudaVariant, WithinTheBoundAtAwkwardSizes) {
  run_all(GetParam(), checks::awkward_dims());
  run_all(GetParam(), checks::aligned_dims());  // the 16-byte paths
}
TEST_P(CudaVariant, WithinTheBoundAtLargeSizes) { run_all(GetParam(), checks::large_dims()); }
// What compute-sanitizer runs (its tools slow every launch down many times): one element, a partial
// tile in every dimension with k past several steps, both 16-byte paths, one row against many.
TEST_P(CudaVariant, WithinTheBoundAtSanitizerSizes) {
  run_all(GetParam(), {{1, 1, 1}, {33, 17, 130}, {67, 129, 93}, {131, 132, 20}, {1, 1000, 3}});
}

INSTANTIATE_TEST_SUITE_P(Ch10, CudaVariant, ::testing::ValuesIn(all_variants()),
                         [](const auto& info) { return info.param.info.name; });

TEST(CudaFmaPeak, IsAPositiveFiniteRate) {
  for (ElementType t : checks::kTypes) {
    const gpgpu::blas::Peak p = ch10::cuda_fma_peak(t, session());
    EXPECT_TRUE(std::isfinite(p.gflops) && p.gflops > 0) << p.name;
  }
}

}  // namespace
