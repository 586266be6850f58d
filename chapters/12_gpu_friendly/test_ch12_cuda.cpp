// Chapter 12's CUDA, cuBLAS and NPP variants (label cuda; exit 77 without a GPU): every one within
// its routine's error bound at the awkward sizes, including one of 64-128 MiB per array, past the
// 50 MiB L2 of an H100, the convolutions also with a separable filter; results poisoned before every run.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "gpgpu/blas/routine_checks.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "variants.hpp"

namespace {

namespace checks = gpgpu::blas::routine_checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cuda::opener()->open();
  return *s;
}

std::vector<gpgpu::blas::RoutineVariant> all_variants() {
  std::vector<gpgpu::blas::RoutineVariant> v = ch12::cuda_variants();
#if GPGPU_HAVE_CUBLAS
  for (gpgpu::blas::RoutineVariant& c : ch12::cublas_variants()) v.push_back(std::move(c));
#endif
#if GPGPU_HAVE_NPP
  for (gpgpu::blas::RoutineVariant& c : ch12::npp_variants()) v.push_back(std::move(c));
#endif
  return v;
}

// The sizes a variant is checked at: the awkward sizes, and for the convolution each of them again
// with a separable (rank-one) filter, which every 2D kernel must get right too; a size the variant
// refuses (the separable one on a filter that is not) is left out, and the refusal must say why.
std::vector<gpgpu::blas::RoutineSizes> sizes_for(const gpgpu::blas::RoutineVariant& v, checks::Reach reach) {
  std::vector<gpgpu::blas::RoutineSizes> all;
  for (gpgpu::blas::RoutineSizes s : checks::awkward_sizes(v.routine, reach)) {
    for (bool separable : {false, true}) {
      if (separable && v.routine != gpgpu::blas::Routine::conv2d) continue;
      s.separable = separable;
      const std::optional<std::string> why = v.limitation ? v.limitation(s, session()) : std::nullopt;
      if (why) {
        EXPECT_FALSE(separable) << v.info.name << " refuses a separable filter: " << *why;
        EXPECT_NE(why->find("not separable"), std::string::npos) << v.info.name << ": " << *why;
        continue;
      }
      all.push_back(s);
    }
  }
  EXPECT_FALSE(all.empty()) << v.info.name << " runs at none of the sizes";
  return all;
}

class CudaVariant : public ::testing::TestWithParam<gpgpu::blas::RoutineVariant> {};

TEST_P(CudaVariant, WithinTheBoundAtAwkwardSizes) {
  for (const gpgpu::blas::RoutineSizes& s : sizes_for(GetParam(), checks::Reach::past_l2))
    EXPECT_TRUE(checks::runs_within_bound(GetParam(), s, session()));
}

// The compute-sanitizer's sizes (scripts/device/ch12.sh): the first four awkward sizes of each
// routine (with and without a separable filter for the convolution), one element and sizes no
// block, tile or vector width divides.
TEST_P(CudaVariant, AtSanitizerSizes) {
  const std::vector<gpgpu::blas::RoutineSizes> sizes = sizes_for(GetParam(), checks::Reach::small);
  for (std::size_t i = 0; i < std::min<std::size_t>(GetParam().routine == gpgpu::blas::Routine::conv2d ? 8 : 4, sizes.size()); ++i)
    EXPECT_TRUE(checks::runs_within_bound(GetParam(), sizes[i], session()));
}

// The copies overlapped with the calls (chunks.hpp, DeviceRoutine::overlapped): our kernels of the
// routines that chunk must run that way, and the result copied down must pass the reference like the
// others; output poisoned first (the pinned result of an earlier run is overwritten with NaN).
TEST_P(CudaVariant, OverlappedInChunksOnStreams) {
  const gpgpu::blas::RoutineVariant& v = GetParam();
  const bool ours = v.info.name.rfind("cuda_", 0) == 0 && v.info.name != "cuda_conv2d_separable";
  const bool chunks = v.routine != gpgpu::blas::Routine::sgemm && v.routine != gpgpu::blas::Routine::sgemv_t;
  for (gpgpu::blas::RoutineSizes s : checks::awkward_sizes(v.routine, checks::Reach::small)) {
    if (v.info.name == "cuda_conv2d_separable") s.separable = true;
    const gpgpu::blas::Case c = gpgpu::blas::make_case(v.routine, s, 19);
    const std::unique_ptr<gpgpu::blas::RoutineOperation> op = v.make(c, session());
    op->upload(c);
    for (int round = 0; round < 2; ++round) {
      const std::optional<double> seconds = op->overlapped(c);
      EXPECT_EQ(seconds.has_value(), ours && chunks) << v.info.name << " on " << c.size_str();
      if (!seconds) break;
      const gpgpu::Verification check = gpgpu::blas::compare(op->copied_result(), gpgpu::blas::reference(c));
      EXPECT_TRUE(check.pass) << v.info.name << " overlapped on " << c.size_str() << ", round " << round << ": " << check.summary();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ch12, CudaVariant, ::testing::ValuesIn(all_variants()),
                         [](const auto& info) { return info.param.info.name; });

}  // namespace
