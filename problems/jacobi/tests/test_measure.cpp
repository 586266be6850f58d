// The measurement exercises' one line (gpgpu/jacobi/measure.hpp): a share of the limit measured in
// the same run, never above 100%. A kernel faster than that limit is the limit.
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
  EXPECT_NE(out.str().find("= 50.0% of stream 11:1 (2000.0 GB/s, memory), measured now"), std::string::npos) << out.str();
}

TEST(MeasureReport, AKernelFasterThanTheLimitIsTheLimit) {
  std::ostringstream out;
  // 1000 GB/s against a limit of 100 GB/s (measured while the device was shared, say): 100%, and the
  // line says which limit the run replaced.
  const auto s = gpgpu::jacobi::measure::report(out, "k", one_gigabyte_per_step(), limit_of(100), [] { return 2e-3; });
  EXPECT_DOUBLE_EQ(s.share, 100);
  EXPECT_EQ(out.str().find("1000.0%"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("= 100.0% of this run, which beat stream 11:1 (100.0 GB/s"), std::string::npos) << out.str();
}

}  // namespace
