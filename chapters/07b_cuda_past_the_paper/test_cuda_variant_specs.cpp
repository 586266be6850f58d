// What can be checked of the CUDA chapters 03-07b without a GPU (label cpu): every variant's record
// names an existing kernel file, a row of the work table, the CUDA opener and timer and (where it
// has one) an implementation of the paper's tables; the memory checks cover the minimum and grow
// with the grid; the launch options parse and decide when a solver may tune.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/cuda/linear_solver.hpp"
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/paper000.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "cuda_variants.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"
#include "gpgpu/jacobi/cuda/texture_solver.hpp"

namespace jc = gpgpu::jacobi::cuda;

namespace {

using gpgpu::jacobi::Variant;

std::vector<Variant> every_variant(const jc::LaunchOptions& launch) {
  return {jc::simple_variant(launch),    jc::aligned_variant(launch),    jc::aligned32_variant(launch),
          jc::pitched_variant(launch),   jc::shared_variant(launch),     jc::shared_paper_variant(launch),
          jc::texture_variant(launch),
          ch07b::readonly_variant(launch), ch07b::tiled2d_variant(launch),   ch07b::multirow_variant(launch),
          ch07b::symmetric_variant(launch), ch07b::symmetric_prefetch_variant(launch),
          ch07b::symmetric_ring_variant(launch)};
}

TEST(CudaVariants, NameTheirKernelWorkOpenerAndTimer) {
  const jc::LaunchOptions launch;
  std::set<std::string> names;
  for (const Variant& v : every_variant(launch)) {
    EXPECT_TRUE(names.insert(v.info.name).second) << v.info.name;
    EXPECT_EQ(v.info.backend, gpgpu::Backend::cuda) << v.info.name;
    EXPECT_EQ(v.opener, &gpgpu::cuda::opener) << v.info.name;
    EXPECT_EQ(v.info.timer, "CUDA events") << v.info.name;
    EXPECT_FALSE(v.info.description.empty()) << v.info.name;
    EXPECT_EQ(v.info.source.rfind("kernels/jacobi/cuda/", 0), 0u) << v.info.source;
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(GPGPU_SOURCE_DIR) / v.info.source)) << v.info.source;
    EXPECT_NO_THROW((void)gpgpu::jacobi::kernel_work(v.work)) << v.info.name;
    EXPECT_TRUE(v.make) << v.info.name;
    EXPECT_TRUE(v.check_fits) << v.info.name;
  }
  EXPECT_EQ(names.size(), 13u);
}

TEST(CudaVariants, PaperNamesExistInThePapersTables) {
  const jc::LaunchOptions launch;
  for (const Variant& v : every_variant(launch)) {
    if (v.info.paper_name.empty()) continue;
    bool found = !gpgpu::jacobi::paper000::results_1024(v.info.paper_name).empty();
    for (const auto& row : gpgpu::jacobi::paper000::kSweep) found = found || row.implementation == v.info.paper_name;
    EXPECT_TRUE(found) << v.info.name << " -> " << v.info.paper_name;
  }
}

TEST(CudaVariants, DeviceBytesCoverTheMinimumAndGrow) {
  const gpgpu::jacobi::Grid small{100, 100}, large{1000, 1000};
  // Stored arrays, f and two iterates.
  EXPECT_GE(jc::linear_device_bytes(small), 12.0 * 4 * 100 * 100);
  EXPECT_GT(jc::linear_device_bytes(large), jc::linear_device_bytes(small));
  EXPECT_GE(jc::linear_padded_floats(small), static_cast<std::size_t>(small.nodes() + 2 * (small.nx + 1)));
  for (int stored : {9, 5}) {
    EXPECT_GE(jc::pitched_device_bytes(small, stored), (stored + 3) * 4.0 * 100 * 100) << stored;
    EXPECT_GT(jc::pitched_device_bytes(large, stored), jc::pitched_device_bytes(small, stored)) << stored;
  }
  EXPECT_LT(jc::pitched_device_bytes(large, 5), jc::pitched_device_bytes(large, 9));
}

TEST(CudaLaunchOptions, ParseAndDecideWhenToTune) {
  jc::CudaOptions o;
  EXPECT_TRUE(o.launch.tuning());
  EXPECT_EQ(o.launch.block_or(64), 64);
  gpgpu::Cli cli("test_cuda_variant_specs", "the CUDA chapters' options");
  jc::add_options(cli, o);
  const char* argv[] = {"test", "--block", "96", "--block-y", "3", "--rows-per-thread", "5", "--cpu-threads", "2"};
  cli.parse(9, argv);
  EXPECT_EQ(o.launch.block_or(64), 96);
  EXPECT_EQ(o.launch.block_y, 3);
  EXPECT_EQ(o.launch.rows_per_thread, 5);
  EXPECT_EQ(o.cpu_threads, 2);
  EXPECT_FALSE(o.launch.tuning());  // a launch the user fixed is kept
  jc::CudaOptions no_tune;
  gpgpu::Cli cli2("test_cuda_variant_specs", "the CUDA chapters' options");
  jc::add_options(cli2, no_tune);
  const char* argv2[] = {"test", "--no-tune"};
  cli2.parse(2, argv2);
  EXPECT_FALSE(no_tune.launch.tuning());
  jc::CudaOptions bad;
  gpgpu::Cli cli3("test_cuda_variant_specs", "the CUDA chapters' options");
  jc::add_options(cli3, bad);
  const char* argv3[] = {"test", "--block", "1025"};
  EXPECT_THROW(cli3.parse(3, argv3), gpgpu::UsageError);
}

TEST(CudaLaunchOptions, BlocksCudaCannotLaunchAreUsageErrors) {
  EXPECT_NO_THROW(jc::check_block(1024));
  EXPECT_NO_THROW(jc::check_block(32, 32));
  EXPECT_THROW(jc::check_block(0), gpgpu::UsageError);
  EXPECT_THROW(jc::check_block(2048), gpgpu::UsageError);
  EXPECT_THROW(jc::check_block(64, 32), gpgpu::UsageError);
}

TEST(CudaChapterSettings, CompareWithChapter01AndOfferTheSweepWhereAsked) {
  const jc::CudaOptions o;
  const gpgpu::jacobi::ChapterSettings with = jc::chapter_settings(o, true);
  const gpgpu::jacobi::ChapterSettings without = jc::chapter_settings(o, false);
  EXPECT_TRUE(with.width_sweep);
  EXPECT_FALSE(without.width_sweep);
  EXPECT_TRUE(with.cpu_baseline);
  EXPECT_GT(with.host_bytes_per_node, 0.0);
}

}  // namespace
