// Chapter 12's CPU variants (label cpu): every one within its routine's error bound at the awkward
// sizes, including one past the last-level cache; results poisoned before every run; the work
// table and the limit's mix of each routine; the CPU's FMA peak measured at all.
#include <memory>

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
