// Chapter 12's CPU variants (label cpu): every one within its routine's error bound at the awkward
// sizes, including one past the last-level cache; results poisoned before every run; the work
// table and the limit's mix of each routine; the CPU's FMA peak measured at all.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "cpu_variants.hpp"
#include "gpgpu/blas/routine_checks.hpp"
#include "gpgpu/cpu_backend.hpp"

namespace {

using gpgpu::blas::Routine;
namespace checks = gpgpu::blas::routine_checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cpu_driver()->open();
  return *s;
}

class CpuVariant : public ::testing::TestWithParam<gpgpu::blas::RoutineVariant> {};

TEST_P(CpuVariant, WithinTheBoundAtAwkwardSizes) {
  for (const gpgpu::blas::RoutineSizes& s : checks::awkward_sizes(GetParam().routine, checks::Reach::past_llc))
    EXPECT_TRUE(checks::runs_within_bound(GetParam(), s, session()));
}

INSTANTIATE_TEST_SUITE_P(Ch12, CpuVariant, ::testing::ValuesIn(ch12::cpu_variants()),
                         [](const auto& info) { return info.param.info.name; });

// The 2D CPU convolution on rank-one filters (--filter separable) at the small awkward sizes.
TEST(CpuConvolution, WithinTheBoundOnSeparableFilters) {
  int convolutions = 0;
  for (const gpgpu::blas::RoutineVariant& v : ch12::cpu_variants()) {
    if (v.routine != Routine::conv2d) continue;
    ++convolutions;
    for (gpgpu::blas::RoutineSizes s : checks::awkward_sizes(Routine::conv2d, checks::Reach::small)) {
      s.separable = true;
      EXPECT_TRUE(checks::runs_within_bound(v, s, session()));
    }
  }
  EXPECT_GT(convolutions, 0);
}

TEST(Routines, WorkTableAndLimitMix) {
  gpgpu::blas::RoutineSizes s;
  s.vector = 1000;
  s.gemv_m = 100;
  s.gemv_n = 300;
  const gpgpu::Work saxpy = gpgpu::blas::routine_work(gpgpu::blas::case_shape(Routine::saxpy, s), 2);
  EXPECT_EQ(saxpy.flops, 4000);
  EXPECT_EQ(saxpy.bytes_min, 24000);
  const gpgpu::StreamMix saxpy_mix = gpgpu::blas::stream_mix(gpgpu::blas::case_shape(Routine::saxpy, s), 1);
  EXPECT_EQ(saxpy_mix.reads, 2);
  EXPECT_EQ(saxpy_mix.writes, 1);
  EXPECT_EQ(saxpy_mix.bytes(), 12000);
  const gpgpu::blas::Case gemv = gpgpu::blas::case_shape(Routine::sgemv, s);
  const gpgpu::Work w = gpgpu::blas::routine_work(gemv, 1);
  EXPECT_EQ(w.flops, 2.0 * 100 * 300);
  EXPECT_EQ(w.bytes_min, 4.0 * (100 * 300 + 100 + 300));
  const gpgpu::StreamMix mix = gpgpu::blas::stream_mix(gemv, 0);
  EXPECT_EQ(mix.reads, 16);  // 30300 reads per 100 writes: the most read-heavy limit there is
  EXPECT_GE(mix.bytes(), w.bytes_min);
  EXPECT_LT(mix.bytes(), w.bytes_min + 17 * 4);
  const gpgpu::StreamMix mix_t = gpgpu::blas::stream_mix(gpgpu::blas::case_shape(Routine::sgemv_t, s), 0);
  EXPECT_EQ(mix_t.reads, 16);
  s.gemv_n = 2;  // 200 elements of A and 2 of x read per 100 of y written: 2:1
  EXPECT_EQ(gpgpu::blas::stream_mix(gpgpu::blas::case_shape(Routine::sgemv, s), 0).reads, 2);
}

TEST(Routines, AWrongElementFailsAndAnUnwrittenOneToo) {
  gpgpu::blas::RoutineSizes s;
  s.gemv_m = 5;
  s.gemv_n = 7;
  const gpgpu::blas::Case c = gpgpu::blas::make_case(Routine::sgemv, s, 3);
  const gpgpu::blas::Expected e = gpgpu::blas::reference(c);
  std::vector<float> y(e.value.begin(), e.value.end());
  EXPECT_TRUE(gpgpu::blas::compare(y, e).pass);
  y[4] = std::nextafter(y[4], 1e30f) * (1 + 1e-5f);  // far beyond γ_7 of |A||x| for values of this size
  EXPECT_FALSE(gpgpu::blas::compare(y, e).pass);
  y[4] = std::nanf("");
  EXPECT_FALSE(gpgpu::blas::compare(y, e).pass);
}

// A separable case: the filter is fl(u_p v_q) of its two factors, both of both signs, each with
// sum |.| = 1; the bound widens to γ_{2k+2} only where it exceeds γ_{k²} (k = 1); the separable work
// table counts 4k FLOPs per pixel and the intermediate image in bytes_all.
TEST(Routines, SeparableFilterCase) {
  gpgpu::blas::RoutineSizes s;
  s.image = {9, 11, 5};
  s.separable = true;
  const gpgpu::blas::Case c = gpgpu::blas::make_case(Routine::conv2d, s, 7);
  ASSERT_EQ(c.factors.size(), 10u);
  ASSERT_EQ(c.b.size(), 25u);
  const auto signs = [](auto first, auto last) {
    return std::any_of(first, last, [](float v) { return v < 0; }) && std::any_of(first, last, [](float v) { return v > 0; });
  };
  EXPECT_TRUE(signs(c.factors.begin(), c.factors.begin() + 5));
  EXPECT_TRUE(signs(c.factors.begin() + 5, c.factors.end()));
  double sum_u = 0;
  for (int p = 0; p < 5; ++p) {
    sum_u += std::fabs(c.factors[static_cast<std::size_t>(p)]);
    for (int q = 0; q < 5; ++q)
      EXPECT_EQ(c.b[static_cast<std::size_t>(p * 5 + q)], c.factors[static_cast<std::size_t>(p)] * c.factors[static_cast<std::size_t>(5 + q)]);
  }
  EXPECT_NEAR(sum_u, 1.0, 1e-6);
  EXPECT_NE(c.size_str().find("separable"), std::string::npos);
  const gpgpu::blas::Expected e = gpgpu::blas::reference(c);
  s.separable = false;
  const gpgpu::blas::Expected plain = gpgpu::blas::reference(gpgpu::blas::make_case(Routine::conv2d, s, 7));
  EXPECT_EQ(e.gamma, plain.gamma);  // k = 5: γ_25 >= γ_12
  s.image.k = 1;
  s.separable = true;
  const gpgpu::blas::Case one = gpgpu::blas::make_case(Routine::conv2d, s, 7);
  s.separable = false;
  EXPECT_GT(gpgpu::blas::reference(one).gamma, gpgpu::blas::reference(gpgpu::blas::make_case(Routine::conv2d, s, 7)).gamma);
  const gpgpu::Work w = gpgpu::conv::conv2d_separable_work({100, 30, 7}, 2);
  EXPECT_EQ(w.flops, 2 * 4.0 * 7 * 3000);
  EXPECT_EQ(w.bytes_min, 2 * 4.0 * (2 * 3000 + 14));
  EXPECT_EQ(w.bytes_all, 2 * 4.0 * (4 * 3000 + 14));
}

TEST(Routines, CpuFmaPeakIsMeasured) {
  const double one = gpgpu::blas::cpu_fma_peak_gflops(1);
  EXPECT_GT(one, 0.1);  // a sanity floor, not a speed assertion: a core does far more
}

#if GPGPU_HAVE_OPENBLAS
TEST(CpuVariants, OpenBlasIsTheLibraryPeerOfEveryBlasRoutine) {
  int libraries = 0;
  for (const auto& v : ch12::cpu_variants()) libraries += v.library;
  EXPECT_EQ(libraries, 5);
}
#endif

}  // namespace
