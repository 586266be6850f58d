// The CPU backend's limit: a measured rate for any read:write mix, the same measurement reused
// within a run, and the working-set class that says which memory level it measured.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/cpu_backend.hpp"

namespace gpgpu {
namespace {

TEST(CpuBackend, StreamLimitIsMeasuredOncePerMix) {
  auto session = cpu_driver()->open();
  const StreamMix mix{3, 1, 1 << 16, 4, 1};
  const Limit a = session->stream_limit(mix);
  const Limit b = session->stream_limit(mix);
  EXPECT_GT(a.gbs, 0.0);
  EXPECT_DOUBLE_EQ(a.gbs, b.gbs);  // cached: the rows of one run share one measurement
  EXPECT_NE(a.name.find("3:1"), std::string::npos);
  EXPECT_NE(a.working_set.find("cache-resident"), std::string::npos) << a.working_set;  // 1 MiB in all
  EXPECT_EQ(session->backend(), Backend::cpu);
  EXPECT_TRUE(session->json().contains("threads"));
}

TEST(CpuBackend, MixCountsEveryArrayOnce) {
  const StreamMix mix{11, 1, 1000, 4};
  EXPECT_DOUBLE_EQ(mix.bytes(), 12.0 * 1000 * 4);
  EXPECT_EQ(mix.str(), "11:1 x 1000 x 4 B");
}

TEST(CpuBackend, WorkingSetClass) {
  EXPECT_EQ(working_set_class(48.0 * (1 << 20), 50.0 * (1 << 20), "L2").rfind("cache-resident (48.0 MiB <= 50.0 MiB L2)", 0), 0u);
  EXPECT_EQ(working_set_class(2.0 * (1 << 30), 50.0 * (1 << 20), "L2").rfind("memory (2.0 GiB > 50.0 MiB L2)", 0), 0u);
}

TEST(CpuBackend, MeasuresOneElementWithoutFault) { EXPECT_GT(measure_host_stream_gbs({1, 1, 1, 4, 1}, 2), 0.0); }

}  // namespace
}  // namespace gpgpu
