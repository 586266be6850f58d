// The CPU backend's limit: a measured rate for any read:write mix, the same measurement reused
// within a run, and the working-set class that says which memory level it measured.
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/cli.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"

namespace gpgpu {
namespace {

TEST(CpuBackend, StreamLimitIsMeasuredOncePerMix) {
  auto session = cpu_opener()->open();
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

// --threads with the opener's option on a command line of its own; the session it opens.
std::unique_ptr<Session> open_with(std::vector<const char*> args) {
  auto opener = cpu_opener();
  Cli cli("prog", "test");
  opener->add_options(cli);
  args.insert(args.begin(), "prog");
  cli.parse(static_cast<int>(args.size()), args.data());
  return opener->open();
}

TEST(CpuBackend, ThreadsTakesOneCountOrAList) {
  EXPECT_EQ(cpu_thread_counts(*open_with({"--threads", "3"})), std::vector<int>{3});
  const auto listed = open_with({"--threads", "1,2,4"});
  EXPECT_EQ(cpu_thread_counts(*listed), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(cpu_threads(*listed), 4);  // a parallel variant that names no count takes the largest
  EXPECT_EQ(cpu_thread_counts(*open_with({"--threads", "4,2,4"})), (std::vector<int>{4, 2}));  // each once
  EXPECT_EQ(cpu_thread_counts(*open_with({})), std::vector<int>{default_cpu_threads()});
  EXPECT_THROW(open_with({"--threads", "1,0"}), UsageError);
  EXPECT_THROW(open_with({"--threads", "two"}), UsageError);
}

TEST(CpuBackend, MeasuresOneElementWithoutFault) { EXPECT_GT(measure_host_stream_gbs({1, 1, 1, 4, 1}, 2), 0.0); }

}  // namespace
}  // namespace gpgpu
