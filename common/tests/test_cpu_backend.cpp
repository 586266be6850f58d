// The CPU backend's limit: a measured rate for any read:write mix, the same measurement reused
// within a run, and the working-set class that says which memory level it measured.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#ifdef _OPENMP
#include <omp.h>
#endif

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

// --threads with the opener's option on a command line of its own; the session it opens. The
// parse sets the threads of every parallel region (use_cpu_threads); they are set back afterwards,
// so that the other tests of this process keep theirs.
std::unique_ptr<Session> open_with(std::vector<const char*> args) {
  const int before = default_cpu_threads();
  auto opener = cpu_opener();
  Cli cli("prog", "test");
  opener->add_options(cli);
  args.insert(args.begin(), "prog");
  try {
    cli.parse(static_cast<int>(args.size()), args.data());
  } catch (...) {
    use_cpu_threads(before);
    throw;
  }
  auto session = opener->open();
  use_cpu_threads(before);
  return session;
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

TEST(CpuBackend, ThreadsAreBounded) {
  // Thousands of threads on a few cores made every barrier wait for thousands of time slices:
  // --threads 4096 looked like a hang.
  const std::string bound = std::to_string(max_cpu_threads()), above = std::to_string(max_cpu_threads() + 1);
  EXPECT_GE(max_cpu_threads(), 64);
  EXPECT_EQ(cpu_threads(*open_with({"--threads", bound.c_str()})), max_cpu_threads());
  EXPECT_THROW(open_with({"--threads", above.c_str()}), UsageError);
  EXPECT_THROW(open_with({"--threads", ("1," + above).c_str()}), UsageError);
}

TEST(CpuBackend, EveryParallelRegionTakesTheThreadsOption) {
#ifdef _OPENMP
  // A region without a num_threads clause of its own (the CPU reference, the inputs) runs on
  // --threads threads, not on OMP_NUM_THREADS or one per core.
  const int before = default_cpu_threads();
  auto opener = cpu_opener();
  Cli cli("prog", "test");
  opener->add_options(cli);
  const char* argv[] = {"prog", "--threads", "2,3"};
  cli.parse(3, argv);
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  use_cpu_threads(before);
  EXPECT_EQ(team, 3);
#else
  GTEST_SKIP() << "built without OpenMP";
#endif
}

TEST(CpuBackend, MeasuresOneElementWithoutFault) { EXPECT_GT(measure_host_stream_gbs({1, 1, 1, 4, 1}, 2), 0.0); }

}  // namespace
}  // namespace gpgpu
