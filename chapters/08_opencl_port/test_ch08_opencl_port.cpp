// Every ported kernel against the double-precision CPU reference: from a random start, at awkward
// sizes (1x1, sizes that are not multiples of the work-group, single rows and columns, a grid
// larger than most L2 caches), for odd and even iteration counts (the ping-pong parity), with
// the other iterate poisoned with NaN before every run. Runs on the device the GPGPU_CL_*
// variables choose (default: a GPU if there is one, else PoCL on the CPU).
#include <cmath>
#include <memory>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "gpgpu/spectral.hpp"
#include "opencl_jacobi.hpp"
#include "opencl_kernels.hpp"
#include "gpgpu/testing/jacobi_check.hpp"

namespace {

using gpgpu::Grid;
constexpr std::size_t kWorkGroup = 64;
constexpr float kOmega = static_cast<float>(gpgpu::kDefaultOmega);

// One device and one build of each program for the whole executable (GPGPU_CL_* choose the device).
gpgpu::ocl::Runtime& runtime() { return gpgpu::ocl::shared_runtime(); }
ch08::ProgramCache& programs() { return ch08::shared_programs(); }

std::vector<float> random_start(const Grid& g) { return gpgpu::testing::random_guess(g.nodes(), 17); }

// Runs `iters` iterations of `v` and compares with the reference from the same start.
::testing::AssertionResult run_and_verify(const ch08::Variant& v, const Grid& g, int iters,
                                          std::size_t work_group = kWorkGroup) {
  const auto sys = gpgpu::assemble_bidomain(g);
  const auto x0 = random_start(g);
  ch08::OpenClJacobi solver(runtime(), programs().program(v), v, sys, work_group);
  solver.reset(x0);
  solver.iterate(iters, kOmega);
  return gpgpu::testing::matches_reference(solver.solution(), sys, x0, iters);
}

struct Case {
  Grid grid;
  int iters;
};

class PortedKernels : public ::testing::TestWithParam<std::tuple<std::string, Case>> {};

TEST_P(PortedKernels, MatchTheReference) {
  const auto& [name, c] = GetParam();
  const ch08::Variant& v = ch08::variant(name);
  if (const auto why = ch08::device_limitation(v, c.grid, runtime())) GTEST_SKIP() << *why;
  EXPECT_TRUE(run_and_verify(v, c.grid, c.iters)) << name;
}

INSTANTIATE_TEST_SUITE_P(
    AwkwardSizes, PortedKernels,
    ::testing::Combine(::testing::Values("simple", "aligned", "local", "image"),
                       ::testing::Values(Case{{1, 1}, 5}, Case{{2, 7}, 1}, Case{{2, 7}, 2}, Case{{17, 33}, 7},
                                         Case{{17, 1023}, 8}, Case{{100, 3}, 3},  // 300 nodes: 4.7 groups
                                         Case{{64, 64}, 4}, Case{{1023, 1}, 5}, Case{{1, 1023}, 6},
                                         Case{{31, 31}, 100},
                                         // more rows than NDRange dimension 1 gets work-groups (65535)
                                         Case{{3, 70000}, 3},
                                         // 1100 x 1000: 53 MB per iteration, larger than an L2 cache
                                         Case{{1100, 1000}, 3})),
    [](const auto& info) {
      const Case& c = std::get<1>(info.param);
      std::string name = std::get<0>(info.param);
      name += "_" + c.grid.str() + "_it" + std::to_string(c.iters);
      return name;
    });

// Every kernel at other work-group sizes, above all the local kernel's tile and barriers: 1 (every
// work-item also loads halo), 96 (not a power of two), 256 (wider than the grid's rows).
class WorkGroupSizes : public ::testing::TestWithParam<std::size_t> {};

TEST_P(WorkGroupSizes, MatchTheReference) {
  const std::size_t wg = GetParam();
  if (wg > runtime().info().max_work_group_size) GTEST_SKIP() << "device work-groups are smaller";
  for (const ch08::Variant& v : ch08::kVariants) {
    for (const Grid g : {Grid{17, 33}, Grid{5, 3}, Grid{300, 2}}) {
      if (ch08::device_limitation(v, g, runtime())) continue;
      EXPECT_TRUE(run_and_verify(v, g, 9, wg)) << v.name << ", work-group " << wg;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, WorkGroupSizes, ::testing::Values(1, 32, 96, 256));

TEST(PortedKernelState, IterationsSplitAcrossCallsEqualOneCall) {
  // The ping-pong state carries over between iterate() calls: 3 + 4 iterations == 7, bit for bit.
  const Grid g{45, 29};
  const auto sys = gpgpu::assemble_bidomain(g);
  const auto x0 = random_start(g);
  for (const ch08::Variant& v : ch08::kVariants) {
    if (ch08::device_limitation(v, g, runtime())) continue;
    ch08::OpenClJacobi solver(runtime(), programs().program(v), v, sys, kWorkGroup);
    solver.reset(x0);
    solver.iterate(7, kOmega);
    const auto once = solver.solution();
    solver.reset(x0);
    solver.iterate(3, kOmega);
    solver.iterate(4, kOmega);
    EXPECT_EQ(solver.solution(), once) << v.name;
    EXPECT_NE(once, x0) << v.name;
  }
}

TEST(PortedKernelState, ResetPoisonsTheOtherIterate) {
  // A kernel that skips the last unknown: the NaN poison reaches the result, so verification fails.
  // This proves the tests above would notice an element a kernel forgets to write.
  std::string text(gpgpu::ocl::kernel_source("01_jacobi_simple.cl").text);
  const std::string guard = "if (k >= nodes) return;";
  const auto at = text.find(guard);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, guard.size(), "if (k >= nodes - 1) return;");
  const gpgpu::EmbeddedText broken{"chapters/08_opencl_port/test: skips the last unknown", text};
  const cl::Program program = runtime().build(broken);
  const Grid g{9, 4};
  const auto sys = gpgpu::assemble_bidomain(g);
  ch08::OpenClJacobi solver(runtime(), program, ch08::variant("simple"), sys, kWorkGroup);
  solver.reset(random_start(g));
  solver.iterate(1, kOmega);
  const auto x = solver.solution();
  EXPECT_TRUE(std::isnan(x.back()));
  EXPECT_EQ(std::count_if(x.begin(), x.end(), [](float e) { return std::isnan(e); }), 1);
}

TEST(PortedKernelState, ProfiledTimeIsPositive) {
  const Grid g{128, 64};
  const auto sys = gpgpu::assemble_bidomain(g);
  ch08::OpenClJacobi solver(runtime(), programs().program(ch08::variant("simple")), ch08::variant("simple"), sys,
                            kWorkGroup);
  solver.reset(random_start(g));
  EXPECT_GT(solver.iterate(1, kOmega), 0.0);
  EXPECT_GT(solver.iterate(2, kOmega), 0.0);
}

TEST(PortedKernelLimits, WorkGroupLargerThanTheKernelAllowsIsAUsageError) {
  const auto sys = gpgpu::assemble_bidomain({8, 8});
  const ch08::Variant& v = ch08::variant("simple");
  EXPECT_THROW(ch08::OpenClJacobi(runtime(), programs().program(v), v, sys, std::size_t{1} << 20), gpgpu::UsageError);
}

TEST(PortedKernelLimits, ImageTooLongForTheDeviceIsReported) {
  gpgpu::ocl::DeviceInfo small = runtime().info();
  small.image_max_buffer_size = 1000;
  const auto why = ch08::device_limitation(ch08::variant("image"), {40, 40}, small);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("CL_DEVICE_IMAGE_MAX_BUFFER_SIZE"), std::string::npos);
  EXPECT_FALSE(ch08::device_limitation(ch08::variant("local"), {40, 40}, small).has_value());
}

TEST(PortedKernelLimits, LayoutsMatchTheCudaSolvers) {
  const Grid g{100, 50};
  gpgpu::ocl::DeviceInfo device = runtime().info();
  const ch08::DeviceLayout aligned = ch08::device_layout(ch08::variant("aligned"), g, device);
  EXPECT_EQ(aligned.ghost, 112);                            // nx+1 = 101 rounded up to 16
  EXPECT_EQ(aligned.x_length, 5216);                        // 112 + 5000 + 101 rounded up to 32
  EXPECT_EQ(ch08::device_layout(ch08::variant("simple"), g, device).ghost, 101);
  EXPECT_EQ(ch08::device_layout(ch08::variant("image"), g, device).ghost, 128);
  device.base_address_align_bits = 4096;                    // 512 bytes: 128 floats, like cudaMallocPitch
  const ch08::DeviceLayout pitched = ch08::device_layout(ch08::variant("local"), g, device);
  EXPECT_EQ(pitched.pitch, 128);
  EXPECT_EQ(pitched.origin, 2 * 128);
  EXPECT_EQ(pitched.x_length, (50 + 4) * 128);
  const ch08::DeviceBytes b = ch08::device_bytes(ch08::variant("local"), g, device);
  EXPECT_DOUBLE_EQ(b.total, 4.0 * 12 * (50 + 4) * 128);
  EXPECT_DOUBLE_EQ(b.largest, 4.0 * (50 + 4) * 128);
}

}  // namespace
