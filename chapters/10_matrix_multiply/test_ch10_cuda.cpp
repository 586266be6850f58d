// Chapter 10's CUDA variants on the GPU (label cuda; skipped without one): every kernel and cuBLAS
// within γ_k|A||B| of the FP64 reference at the awkward sizes and at 4097 and large rectangles,
// in float and double (TF32 within its own bound), C poisoned before every run; the FMA peak is a
// positive, finite rate. compute-sanitizer runs this binary with --gtest_filter=*AtSanitizerSizes*.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"
#include "gpgpu/blas/cuda/fma_peak.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "variants.hpp"

namespace {

using gpgpu::blas::ElementType;
namespace checks = gpgpu::blas::checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cuda::opener()->open();
  return *s;
}

std::vector<gpgpu::blas::GemmVariant> all_variants() {
  std::vector<gpgpu::blas::GemmVariant> v = ch10::cuda_variants();
#if GPGPU_HAVE_CUBLAS
  for (gpgpu::blas::GemmVariant& c : ch10::cublas_variants()) v.push_back(std::move(c));
#endif
  return v;
}

// What compute-sanitizer runs (its tools slow every launch down many times): one element, a partial
// tile in every dimension with k past several steps, both 16-byte paths, one row against many.
const std::vector<gpgpu::blas::Dims> kSanitizerSizes{{1, 1, 1}, {33, 17, 130}, {67, 129, 93}, {131, 132, 20}, {1, 1000, 3}};

class CudaVariant : public ::testing::TestWithParam<gpgpu::blas::GemmVariant> {};

void run_all(const gpgpu::blas::GemmVariant& spec, const std::vector<gpgpu::blas::Dims>& sizes) {
  for (ElementType t : checks::kTypes)
    for (const gpgpu::blas::Dims& d : sizes) {
      if (spec.limitation && spec.limitation({d, t}, session())) continue;
      EXPECT_TRUE(checks::runs_within_bound(spec, d, t, session()));
    }
}

TEST_P(CudaVariant, WithinTheBoundAtAwkwardSizes) {
  run_all(GetParam(), checks::awkward_dims());
  run_all(GetParam(), checks::aligned_dims());  // the 16-byte paths
}
TEST_P(CudaVariant, WithinTheBoundAtLargeSizes) { run_all(GetParam(), checks::large_dims()); }
TEST_P(CudaVariant, WithinTheBoundAtSanitizerSizes) { run_all(GetParam(), kSanitizerSizes); }

INSTANTIATE_TEST_SUITE_P(Ch10, CudaVariant, ::testing::ValuesIn(all_variants()),
                         [](const auto& info) { return info.param.info.name; });

// Every configuration of a tunable variant (steps 9 and 10: what --tune may pick) at `sizes`, C
// poisoned before each; `float_count` configurations in float, one (nothing to tune) in double.
void every_configuration(const std::string& name, std::size_t float_count, const std::vector<gpgpu::blas::Dims>& sizes) {
  const auto variants = ch10::cuda_variants();
  const auto spec = std::find_if(variants.begin(), variants.end(), [&name](const auto& v) { return v.info.name == name; });
  ASSERT_NE(spec, variants.end());
  for (ElementType t : checks::kTypes)
    for (const gpgpu::blas::Dims& d : sizes) {
      const auto& [ops, ref] = checks::problem(d, t);
      const std::unique_ptr<gpgpu::blas::GemmOperation> op = spec->make({d, t}, session());
      const std::vector<std::string> names = op->configurations();
      EXPECT_EQ(names.size(), t == ElementType::f64 ? 0u : float_count);  // double: one configuration, nothing to tune
      for (std::size_t i = 0; i < std::max<std::size_t>(names.size(), 1); ++i) {
        if (!names.empty()) op->configure(i);
        op->upload(ops);
        (void)op->run(1);
        const gpgpu::Verification v = gpgpu::blas::compare(op->download(), ref, spec->arithmetic(t));
        EXPECT_TRUE(v.pass) << (names.empty() ? "" : names[i]) << " on " << checks::case_name(d, t) << ": " << v.summary();
      }
    }
}

std::vector<gpgpu::blas::Dims> awkward_and_aligned() {
  std::vector<gpgpu::blas::Dims> sizes = checks::awkward_dims();
  for (const gpgpu::blas::Dims& d : checks::aligned_dims()) sizes.push_back(d);
  return sizes;
}

TEST(ThreeStage, EveryConfigurationAtAwkwardSizes) { every_configuration("cuda_three_stage", 6, awkward_and_aligned()); }
TEST(ThreeStage, EveryConfigurationAtSanitizerSizes) { every_configuration("cuda_three_stage", 6, kSanitizerSizes); }
TEST(Prefetch, EveryConfigurationAtAwkwardSizes) { every_configuration("cuda_prefetch", 3, awkward_and_aligned()); }
TEST(Prefetch, EveryConfigurationAtSanitizerSizes) { every_configuration("cuda_prefetch", 3, kSanitizerSizes); }
// Past one group of the grouped rasterisation (8 tile rows) in both paths, with a partial last group.
TEST(Prefetch, EveryConfigurationPastOneGroup) {
  every_configuration("cuda_prefetch", 3, {{2100, 300, 9}, {1100, 516, 12}});
}

TEST(CudaFmaPeak, IsAPositiveFiniteRate) {
  for (ElementType t : checks::kTypes) {
    const gpgpu::blas::Peak p = gpgpu::blas::cuda::fma_peak(t, session());
    EXPECT_TRUE(std::isfinite(p.gflops) && p.gflops > 0) << p.name;
  }
}

}  // namespace
