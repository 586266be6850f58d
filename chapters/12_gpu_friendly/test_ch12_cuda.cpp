// Chapter 12's CUDA and cuBLAS variants (label cuda; exit 77 without a GPU): every one within its
// routine's error bound at the awkward sizes, including one of 64-128 MiB per array, past the
// 50 MiB L2 of an H100; results poisoned before every run.
#include <algorithm>
#include <memory>

#include <gtest/gtest.h>

#include "cuda_routines.hpp"
#include "gpgpu/blas/routine_checks.hpp"
#include "gpgpu/cuda/driver.hpp"
#if GPGPU_HAVE_CUBLAS
#include "cublas_routines.hpp"
#endif

namespace {

namespace checks = gpgpu::blas::routine_checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cuda::driver()->open();
  return *s;
}

std::vector<gpgpu::blas::RoutineVariant> all_variants() {
  std::vector<gpgpu::blas::RoutineVariant> v = ch12::cuda_variants();
#if GPGPU_HAVE_CUBLAS
  for (gpgpu::blas::RoutineVariant& c : ch12::cublas_variants()) v.push_back(std::move(c));
#endif
  return v;
}

class CudaVariant : public ::testing::TestWithParam<gpgpu::blas::RoutineVariant> {};

TEST_P(CudaVariant, WithinTheBoundAtAwkwardSizes) {
  for (const gpgpu::blas::RoutineSizes& s : checks::awkward_sizes(GetParam().routine, checks::Reach::past_l2))
    EXPECT_TRUE(checks::runs_within_bound(GetParam(), s, session()));
}

// The compute-sanitizer's sizes (scripts/device/ch12.sh): the first four awkward sizes of each
// routine, one element and sizes no block, tile or vector width divides.
TEST_P(CudaVariant, AtSanitizerSizes) {
  const std::vector<gpgpu::blas::RoutineSizes> sizes = checks::awkward_sizes(GetParam().routine, checks::Reach::small);
  for (std::size_t i = 0; i < std::min<std::size_t>(4, sizes.size()); ++i)
    EXPECT_TRUE(checks::runs_within_bound(GetParam(), sizes[i], session()));
}

INSTANTIATE_TEST_SUITE_P(Ch12, CudaVariant, ::testing::ValuesIn(all_variants()),
                         [](const auto& info) { return info.param.info.name; });

}  // namespace
