// The measurement exercises' one line (gpgpu/jacobi/measure.hpp): a share of the limit measured in
// the same run, judged by the chapters' limit rule (gpgpu/limit_rule.hpp), never above 100%: a kernel
// whose best run beats the stream kernel is the limit.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/measure.hpp"

namespace {

gpgpu::Work one_gigabyte_per_step() {
  gpgpu::Work w;
  w.bytes_min = 2e9;  // two steps of 1e9 bytes each
  w.steps = 2;
  w.step = "iter";
  return w;
}

gpgpu::Limit limit_of(double gbs) {
  gpgpu::Limit l;
  l.name = "stream 11:1";
  l.gbs = gbs;
  l.working_set = "memory";
  return l;
}

TEST(MeasureReport, ShareOfTheLimitBelowIt) {
  std::ostringstream out;
  // 2 steps in 2 ms: 1 ms a step, 1e9 B a step = 1000 GB/s against a limit of 2000 GB/s.
  const auto s = gpgpu::jacobi::measure::report(out, "k", one_gigabyte_per_step(), limit_of(2000), [] { return 2e-3; });
  EXPECT_DOUBLE_EQ(s.gbs, 1000);
  EXPECT_DOUBLE_EQ(s.share, 50);
  EXPECT_NE(out.str().find("= 50.0% of stream 11:1: 2000.0 GB/s, memory, measured now"), std::string::npos) << out.str();
}

TEST(MeasureReport, AKernelFasterThanTheLimitIsTheLimit) {
  std::ostringstream out;
  // 1000 GB/s against a limit of 100 GB/s (measured while the device was shared, say): 100%, and the
  // line says which limit the run replaced.
  const auto s = gpgpu::jacobi::measure::report(out, "k", one_gigabyte_per_step(), limit_of(100), [] { return 2e-3; });
  EXPECT_DOUBLE_EQ(s.share, 100);
  EXPECT_EQ(out.str().find("1000.0%"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("= 100.0% of stream 11:1: 100.0 GB/s, memory; beaten by k's best run, which is the limit: "
                           "1000.0 GB/s"),
            std::string::npos)
      << out.str();
}

TEST(MeasureReport, TheMedianIsJudgedAgainstTheBestRun) {
  std::ostringstream out;
  // Runs of 2, 4, 4, 4, 4 ms after the warm-up: the best run (1000 GB/s) beats the 100 GB/s limit and
  // becomes it; the median (500 GB/s) is half of it, as the chapters' tables judge a median.
  int call = 0;
  const auto s = gpgpu::jacobi::measure::report(out, "k", one_gigabyte_per_step(), limit_of(100),
                                                [&] { return ++call == 2 ? 2e-3 : 4e-3; });
  EXPECT_DOUBLE_EQ(s.gbs, 500);
  EXPECT_DOUBLE_EQ(s.share, 50);
}

}  // namespace
