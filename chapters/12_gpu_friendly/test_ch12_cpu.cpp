// Chapter 12's CPU variants (label cpu): every one within its routine's error bound at the awkward
// sizes, including one past the last-level cache; results poisoned before every run; the work
// table and the limit's mix of each routine; the CPU's FMA peak measured at all.
#include <algorithm>
#include <cmath>
#include <span>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "chunks.hpp"
#include "gpgpu/blas/routine_checks.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "variants.hpp"

namespace {

using gpgpu::blas::Routine;
namespace checks = gpgpu::blas::routine_checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cpu_opener()->open();
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

// The overlapped transfers' plan (chunks.hpp) carried out on the host: "device" arrays start as NaN,
// each chunk copies its ranges up (tagging every element with the chunk), computes its sub-problem
// as the CUDA call would (the convolution with the CPU variant's code on its band, zero-padded at the
// band's edges), and copies its part of the result down. Every element of every input must be copied
// exactly once, every element the call reads must come from the chunk itself or one it waits for,
// every element of the result must be copied down once, and the result must pass the FP64 reference.
struct Emulated {
  std::vector<float> result;
  std::string problem;  // empty when the plan kept every rule
};
Emulated carry_out(const gpgpu::blas::Case& c, const std::vector<ch12::Chunk>& plan) {
  const float nan = std::nanf("");
  std::vector<float> dev[4] = {std::vector<float>(c.a.size(), nan), std::vector<float>(c.b.size(), nan),
                               std::vector<float>(c.x.size(), nan), std::vector<float>(c.y.size(), nan)};
  const std::vector<float>* host[4] = {&c.a, &c.b, &c.x, &c.y};
  std::vector<int> tag[4];
  for (int a = 0; a < 4; ++a) tag[a].assign(dev[a].size(), -1);
  std::vector<float> out(c.routine == Routine::sgemv ? static_cast<std::size_t>(c.m) : 0, nan);
  Emulated e{std::vector<float>(static_cast<std::size_t>(c.output_size()), nan), {}};
  std::vector<int> written(e.result.size(), 0);
  for (std::size_t i = 0; i < plan.size() && e.problem.empty(); ++i) {
    const ch12::Chunk& ch = plan[i];
    for (const ch12::Copy& up : ch.uploads) {
      const auto a = static_cast<std::size_t>(up.array);
      for (std::int64_t j = up.first; j < up.first + up.count; ++j) {
        if (tag[a][static_cast<std::size_t>(j)] != -1) e.problem = "an element copied up twice";
        tag[a][static_cast<std::size_t>(j)] = static_cast<int>(i);
        dev[a][static_cast<std::size_t>(j)] = (*host[a])[static_cast<std::size_t>(j)];
      }
    }
    const auto readable = [&](ch12::Array array, std::int64_t first, std::int64_t count) {
      for (std::int64_t j = first; j < first + count; ++j) {
        const int t = tag[static_cast<std::size_t>(array)][static_cast<std::size_t>(j)];
        if (t != static_cast<int>(i) && std::find(ch.waits.begin(), ch.waits.end(), t) == ch.waits.end())
          e.problem = "chunk " + std::to_string(i) + " reads an element of chunk " + std::to_string(t) + " without waiting for it";
      }
    };
    std::vector<float> band;
    const float* part = nullptr;
    switch (c.routine) {
      case Routine::saxpy:
        readable(ch12::Array::x, ch.x_first, ch.n);
        readable(ch12::Array::y, ch.x_first, ch.n);
        for (std::int64_t j = ch.x_first; j < ch.x_first + ch.n; ++j) {
          const auto u = static_cast<std::size_t>(j);
          dev[3][u] = std::fma(c.alpha, dev[2][u], dev[3][u]);
        }
        part = dev[3].data() + ch.result_first;
        break;
      case Routine::sscal:
        readable(ch12::Array::x, ch.x_first, ch.n);
        for (std::int64_t j = ch.x_first; j < ch.x_first + ch.n; ++j) dev[2][static_cast<std::size_t>(j)] *= c.alpha;
        part = dev[2].data() + ch.result_first;
        break;
      case Routine::sgemv:
        readable(ch12::Array::a, ch.a_first, ch.m * ch.n);
        readable(ch12::Array::x, 0, c.n);
        for (std::int64_t r = 0; r < ch.m; ++r) {
          double sum = 0;
          for (std::int64_t j = 0; j < ch.n; ++j) sum += double{dev[0][static_cast<std::size_t>(ch.a_first + r * ch.n + j)]} * dev[2][static_cast<std::size_t>(j)];
          out[static_cast<std::size_t>(ch.out_first + r)] = static_cast<float>(sum);
        }
        part = out.data() + ch.result_first;
        break;
      case Routine::conv2d: {
        readable(ch12::Array::a, ch.a_first, ch.m * ch.n);
        readable(ch12::Array::b, 0, c.k * c.k);
        band.assign(static_cast<std::size_t>(ch.m * ch.n), nan);
        const gpgpu::conv::Shape shape{ch.m, ch.n, static_cast<int>(c.k)};
        gpgpu::conv::convolve_openmp(std::span<const float>(dev[0].data() + ch.a_first, band.size()), dev[1], band, shape, 1);
        part = band.data() + ch.band_skip * ch.n;
        break;
      }
      default: e.problem = "a plan for a routine that does not chunk";
    }
    for (std::int64_t j = 0; j < ch.result_count && part != nullptr; ++j) {
      e.result[static_cast<std::size_t>(ch.result_first + j)] = part[j];
      ++written[static_cast<std::size_t>(ch.result_first + j)];
    }
  }
  for (int a = 0; a < 4 && e.problem.empty(); ++a)
    if (std::count(tag[a].begin(), tag[a].end(), -1) > 0) e.problem = "an input element never copied up";
  if (e.problem.empty() && std::any_of(written.begin(), written.end(), [](int w) { return w != 1; }))
    e.problem = "a result element copied down other than once";
  return e;
}

TEST(Overlapped, ThePlanCoversEveryElementOnceAndComputesTheRoutine) {
  for (Routine r : {Routine::saxpy, Routine::sscal, Routine::sgemv, Routine::conv2d})
    for (gpgpu::blas::RoutineSizes s : checks::awkward_sizes(r, checks::Reach::small))
      for (int chunks : {1, 3, 8}) {
        const gpgpu::blas::Case c = gpgpu::blas::make_case(r, s, 5);
        const std::vector<ch12::Chunk> plan = ch12::plan_chunks(c, chunks);
        ASSERT_FALSE(plan.empty()) << c.size_str();
        EXPECT_LE(plan.size(), static_cast<std::size_t>(chunks)) << c.size_str();
        for (const ch12::Chunk& ch : plan) {
          if (r == Routine::saxpy || r == Routine::sscal) {
            EXPECT_EQ(ch.x_first % 4, 0) << "float4 alignment, " << c.size_str();
          }
        }
        const Emulated e = carry_out(c, plan);
        EXPECT_EQ(e.problem, "") << gpgpu::blas::routine_name(r) << " on " << c.size_str() << ", " << chunks << " chunks";
        const gpgpu::Verification v = gpgpu::blas::compare(e.result, gpgpu::blas::reference(c));
        EXPECT_TRUE(v.pass) << gpgpu::blas::routine_name(r) << " on " << c.size_str() << ", " << chunks << " chunks: " << v.summary();
      }
}

// A plan whose waits were dropped must be caught: the test above can fail.
TEST(Overlapped, AMissingWaitIsCaught) {
  gpgpu::blas::RoutineSizes s;
  s.image = {67, 129, 9};
  const gpgpu::blas::Case c = gpgpu::blas::make_case(Routine::conv2d, s, 5);
  std::vector<ch12::Chunk> plan = ch12::plan_chunks(c, 8);
  ASSERT_GT(plan.size(), 2u);
  plan[2].waits.clear();
  EXPECT_NE(carry_out(c, plan).problem, "");
}

TEST(Overlapped, SgemvTransposedAndSgemmDoNotChunk) {
  gpgpu::blas::RoutineSizes s;
  s.gemv_m = s.gemv_n = 64;
  s.gemm = 64;
  EXPECT_TRUE(ch12::plan_chunks(gpgpu::blas::case_shape(Routine::sgemv_t, s), 8).empty());
  EXPECT_TRUE(ch12::plan_chunks(gpgpu::blas::case_shape(Routine::sgemm, s), 8).empty());
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
