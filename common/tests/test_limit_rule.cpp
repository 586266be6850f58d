// The limit rule: a limit is the fastest verified rate of its class in the run, so no share can
// exceed 100%; a FAIL proves nothing; classes (backend, measurement, mix, working set) never mix;
// settling again after more rates arrive re-judges them all.
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/experiment.hpp"
#include "gpgpu/limit_rule.hpp"

namespace gpgpu {
namespace {

Limit stream(double gbs, const std::string& working_set = "memory (1 GiB > 50 MiB L2)") {
  return {"stream 2:1 float4 kernel", gbs, "2:1 x 1000 x 4 B", working_set, std::nan(""), std::nan(""), {}};
}

TEST(LimitRule, TheStreamKernelStaysTheLimitWhenNothingBeatsIt) {
  Limit a = stream(100), b = stream(100);
  settle_limits({{"cuda", "slow", 80, true, &a}, {"cuda", "slower", 60, true, &b}});
  EXPECT_DOUBLE_EQ(a.gbs, 100);
  EXPECT_DOUBLE_EQ(a.stream_gbs, 100);
  EXPECT_TRUE(a.raised_by.empty());
  EXPECT_EQ(describe_limit(a).find("beaten"), std::string::npos);
}

TEST(LimitRule, AFasterVerifiedRunRaisesEveryLimitOfItsClass) {
  Limit a = stream(100), b = stream(100);
  settle_limits({{"cuda", "slow", 80, true, &a}, {"cuda", "fast", 104, true, &b}});
  for (const Limit* l : {&a, &b}) {
    EXPECT_DOUBLE_EQ(l->gbs, 104);
    EXPECT_DOUBLE_EQ(l->stream_gbs, 100);
    EXPECT_EQ(l->raised_by, "fast");
  }
  EXPECT_NE(describe_limit(a).find("beaten by fast's best run"), std::string::npos);
}

TEST(LimitRule, AFailedRunRaisesNothing) {
  Limit a = stream(100);
  settle_limits({{"cuda", "wrong_but_fast", 500, false, &a}});
  EXPECT_DOUBLE_EQ(a.gbs, 100);
  EXPECT_TRUE(a.raised_by.empty());
}

TEST(LimitRule, ALimitNeverMeasuredStaysUnmeasured) {
  Limit none = stream(std::nan(""));  // a compute-bound row: no bandwidth limit judges it
  settle_limits({{"cuda", "gemm", 500, true, &none}});
  EXPECT_TRUE(std::isnan(none.gbs));
  EXPECT_TRUE(none.raised_by.empty());
}

TEST(LimitRule, ClassesDoNotMix) {
  Limit cuda = stream(100), opencl = stream(100), cached = stream(100, "cache-resident (4 MiB <= 50 MiB L2)");
  settle_limits({{"cuda", "a", 90, true, &cuda}, {"opencl", "b", 150, true, &opencl}, {"cuda", "c", 300, true, &cached}});
  EXPECT_DOUBLE_EQ(cuda.gbs, 100);
  EXPECT_DOUBLE_EQ(opencl.gbs, 150);
  EXPECT_DOUBLE_EQ(cached.gbs, 300);
}

TEST(LimitRule, SettlingAgainReJudgesFromTheStreamFigure) {
  Limit a = stream(100), b = stream(100);
  settle_limits({{"cuda", "first", 120, true, &a}});
  EXPECT_DOUBLE_EQ(a.gbs, 120);
  settle_limits({{"cuda", "first", 120, true, &a}, {"cuda", "second", 130, true, &b}});
  EXPECT_DOUBLE_EQ(a.gbs, 130);
  EXPECT_EQ(a.raised_by, "second");
  settle_limits({{"cuda", "first", 90, true, &a}});  // the same limit judged without the faster run
  EXPECT_DOUBLE_EQ(a.gbs, 100);
  EXPECT_TRUE(a.raised_by.empty());
}

// Through the experiment: a row whose median beats the stream figure reads at most 100%, and the
// table's footer names the run that raised the limit.
TEST(LimitRule, NoShareInAnExperimentExceedsOneHundredPercent) {
  Experiment exp({"99", "test_program", "a test chapter", "no paper"});
  exp.use(cpu_opener);
  const char* argv[] = {"test_program"};
  exp.parse(1, argv, {"fast", "slow"});
  std::ostringstream out;
  const auto row = [](const std::string& name, std::vector<double> samples) {
    ResultRow r;
    r.variant = name;
    r.backend = "cpu";
    r.samples = std::move(samples);
    r.work = {"k", 0, 1e9, 1e9, 1, "elements", 1, "call", 1, 1};
    r.limit = stream(1.0);  // 1 GB/s: both rows below beat it
    r.check = compare_normwise(std::vector<float>{1.0f}, std::vector<double>{1.0}, 1e-6);
    return r;
  };
  exp.record(out, row("slow", {0.5, 0.6, 0.7}));  // 2 GB/s at best
  exp.record(out, row("fast", {0.25, 0.3, 0.4}));  // 4 GB/s at best, 3.33 at the median
  for (const ResultRow& r : exp.rows()) {
    EXPECT_LE(r.limit_share(), 1.0) << r.variant;
    EXPECT_DOUBLE_EQ(r.limit.gbs, 4.0);
    EXPECT_EQ(r.limit.raised_by, "fast");
  }
  EXPECT_EQ(exp.finish(out, {}, {}), kExitSuccess);
  EXPECT_NE(out.str().find("beaten by fast's best run"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace gpgpu
