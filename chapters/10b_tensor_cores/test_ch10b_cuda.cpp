// Chapter 10b's variants on the GPU (label cuda; skipped without one): every kernel and cuBLAS peer
// within its inputs' bound (TF32 or BF16, problems/blas gemm.cpp) of the FP64 reference, at the
// awkward sizes (tails in every dimension), the aligned ones (the 16-byte paths) and the large
// ones, C poisoned before every run; the double run is refused, with a reason, by every variant.
// compute-sanitizer runs this binary with --gtest_filter=*AtSanitizerSizes*.
#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "tensor_core_variants.hpp"

namespace {

using gpgpu::blas::Dims;
using gpgpu::blas::ElementType;
namespace checks = gpgpu::blas::checks;

std::vector<gpgpu::blas::GemmVariant> kernels_then_cublas() {
  std::vector<gpgpu::blas::GemmVariant> v = ch10b::kernel_variants();
#if GPGPU_HAVE_WGMMA
  std::ranges::move(ch10b::wgmma_variants(), std::back_inserter(v));
  std::ranges::move(ch10b::tma_variants(), std::back_inserter(v));
#endif
#if GPGPU_HAVE_CUBLAS
  std::ranges::move(ch10b::cublas_variants(), std::back_inserter(v));
#endif
#if GPGPU_HAVE_CUBLASLT
  std::ranges::move(ch10b::cublaslt_variants(), std::back_inserter(v));
#endif
  return v;
}

// One suite of checks per variant, on one CUDA session opened for all of them.
class TensorCoreVariant : public ::testing::TestWithParam<gpgpu::blas::GemmVariant> {
 protected:
  static void SetUpTestSuite() { gpu_ = gpgpu::cuda::opener()->open(); }
  static void TearDownTestSuite() { gpu_.reset(); }

  // The variant within its bound at every size of `sizes` in float that it accepts; sizes it
  // refuses (TMA's k, a Hopper-only step elsewhere) are passed over, and if it refuses them all the
  // test skips with the last reason.
  static void within_bound_at(const std::vector<Dims>& sizes) {
    const gpgpu::blas::GemmVariant& v = GetParam();
    std::optional<std::string> refused;
    int ran = 0;
    for (const Dims& d : sizes) {
      if ((refused = v.limitation({d, ElementType::f32}, *gpu_))) continue;
      EXPECT_TRUE(checks::runs_within_bound(v, d, ElementType::f32, *gpu_));
      ++ran;
    }
    if (ran == 0 && refused) GTEST_SKIP() << *refused;
  }
  static inline std::unique_ptr<gpgpu::Session> gpu_;
};

TEST_P(TensorCoreVariant, WithinTheBoundAtAwkwardAndAlignedSizes) {
  within_bound_at(checks::awkward_dims());
  within_bound_at(checks::aligned_dims());
}
TEST_P(TensorCoreVariant, WithinTheBoundAtLargeSizes) { within_bound_at(checks::large_dims()); }
// For compute-sanitizer (its tools slow every launch down many times): one element, partial tiles
// in every dimension with k past several steps, the 16-byte paths of both input types, one row.
TEST_P(TensorCoreVariant, WithinTheBoundAtSanitizerSizes) {
  within_bound_at({{1, 1, 1}, {33, 17, 130}, {67, 129, 93}, {131, 136, 72}, {1, 1000, 3}});
}
TEST_P(TensorCoreVariant, RefusesTheDoubleRun) {
  EXPECT_TRUE(GetParam().limitation({{64, 64, 64}, ElementType::f64}, *gpu_).has_value());
}

INSTANTIATE_TEST_SUITE_P(Ch10b, TensorCoreVariant, ::testing::ValuesIn(kernels_then_cublas()),
                         [](const auto& info) { return info.param.info.name; });

}  // namespace
