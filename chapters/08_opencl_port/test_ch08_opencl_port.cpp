// Every ported kernel against the double-precision CPU reference: from a random start, at awkward
// sizes (1x1, sizes that are not multiples of the work-group, single rows and columns, a grid
// larger than most L2 caches), for odd and even iteration counts (the ping-pong parity), with
// the other iterate poisoned with NaN before every run; the Solver contract; the registry's
// entries (limits of the device, --wg, memory); the OpenCL-against-CUDA table. Runs on the device
// the GPGPU_CL_* variables choose (default: a GPU if there is one, else PoCL on the CPU).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/verify.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/opencl_kernels.hpp"
#include "gpgpu/jacobi/spectral.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "gpgpu/opencl/opener.hpp"
#include "opencl_variants.hpp"
#include "port_report.hpp"

namespace {

using gpgpu::jacobi::Grid;
constexpr std::size_t kWorkGroup = 64;
constexpr float kOmega = static_cast<float>(gpgpu::jacobi::kDefaultOmega);

// One device for the whole executable (GPGPU_CL_* choose it); its runtime builds each program once.
gpgpu::ocl::Runtime& runtime() { return gpgpu::ocl::shared_runtime(); }
const cl::Program& program(const ch08::Port& v, ch08::Division division = ch08::Division::correctly_rounded) {
  return ch08::variant_program(runtime(), v, division);
}

std::vector<float> random_start(const Grid& g) { return gpgpu::jacobi::checks::random_guess(g.nodes(), 17); }

// Runs `iters` iterations of `v` and compares with the reference from the same start.
::testing::AssertionResult run_and_verify(const ch08::Port& v, const Grid& g, int iters,
                                          std::size_t work_group = kWorkGroup) {
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const auto x0 = random_start(g);
  ch08::OpenClJacobi solver(runtime(), program(v), v, sys, work_group);
  solver.reset(x0);
  solver.iterate(iters, kOmega);
  return gpgpu::jacobi::checks::matches_reference(solver.solution(), sys, x0, iters);
}

struct Case {
  Grid grid;
  int iters;
};

class PortedKernels : public ::testing::TestWithParam<std::tuple<std::string, Case>> {};

TEST_P(PortedKernels, MatchTheReference) {
  const auto& [name, c] = GetParam();
  const ch08::Port& v = ch08::port(name);
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
  for (const ch08::Port& v : ch08::kPorts) {
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
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const auto x0 = random_start(g);
  for (const ch08::Port& v : ch08::kPorts) {
    if (ch08::device_limitation(v, g, runtime())) continue;
    ch08::OpenClJacobi solver(runtime(), program(v), v, sys, kWorkGroup);
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
  std::string text(gpgpu::jacobi::opencl_kernel("kernels/jacobi/opencl/08_01_simple.cl").text);
  const std::string guard = "if (k >= nodes) return;";
  const auto at = text.find(guard);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, guard.size(), "if (k >= nodes - 1) return;");
  const gpgpu::EmbeddedText broken{"chapters/08_opencl_port/test: skips the last unknown", text};
  const cl::Program program = runtime().build(broken);
  const Grid g{9, 4};
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  ch08::OpenClJacobi solver(runtime(), program, ch08::port("simple"), sys, kWorkGroup);
  solver.reset(random_start(g));
  solver.iterate(1, kOmega);
  const auto x = solver.solution();
  EXPECT_TRUE(std::isnan(x.back()));
  EXPECT_EQ(std::count_if(x.begin(), x.end(), [](float e) { return std::isnan(e); }), 1);
}

TEST(PortedKernelState, ProfiledTimeIsPositive) {
  const Grid g{128, 64};
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  ch08::OpenClJacobi solver(runtime(), program(ch08::port("simple")), ch08::port("simple"), sys, kWorkGroup);
  solver.reset(random_start(g));
  EXPECT_GT(solver.iterate(1, kOmega), 0.0);
  EXPECT_GT(solver.iterate(2, kOmega), 0.0);
}

// Rounding, not only correctness: with correctly rounded division (where the device offers it) the
// ports compute what the CUDA kernels and chapter 01's float loop compute, so after many iterations
// their error against the double-precision reference is that of the CPU's float arithmetic, not
// the several times larger error that OpenCL C's 2.5-ulp division leaves on some devices (chapter
// 08's README: 2.1e-6 against 7.3e-7 on the H100 at 1024², 1000 iterations). Errors of independent
// roundings vary by tens of percent between codes; 2x is the bound.
TEST(PortedKernelAccuracy, ErrorWithinTwiceTheCpuFloatLoopsWhereDivisionIsCorrectlyRounded) {
  if (!ch08::correctly_rounded_division(runtime().device()))
    GTEST_SKIP() << "the device has no CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT";
  const Grid g{256, 192};
  constexpr int kIters = 500;
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const std::vector<float> x0(static_cast<std::size_t>(g.nodes()), 0.0f);  // the chapters' start
  const auto reference = gpgpu::jacobi::jacobi_reference(sys, x0, kIters, gpgpu::jacobi::kDefaultOmega);
  const double tolerance = gpgpu::jacobi::jacobi_tolerance(kIters);
  gpgpu::jacobi::cpu::SeparateDiagonalsSolver cpu(sys, 1);
  cpu.reset(x0);
  cpu.iterate(kIters, kOmega);
  const double cpu_error = gpgpu::compare_normwise(cpu.solution(), reference, tolerance).rel_l2;
  ASSERT_GT(cpu_error, 0.0);
  for (const ch08::Port& v : ch08::kPorts) {
    if (ch08::device_limitation(v, g, runtime())) continue;
    ch08::OpenClJacobi solver(runtime(), program(v), v, sys, kWorkGroup);
    solver.reset(x0);
    solver.iterate(kIters, kOmega);
    const double error = gpgpu::compare_normwise(solver.solution(), reference, tolerance).rel_l2;
    EXPECT_LE(error, 2.0 * cpu_error) << v.name << ": " << error << " against the CPU float loop's " << cpu_error;
    std::cout << "  " << v.name << ": rel. error " << error << " (CPU float loop " << cpu_error << ")\n";
  }
}

TEST(PortedKernelAccuracy, BuildOptionsFollowTheDevice) {
  const cl::Device& device = runtime().device();
  EXPECT_EQ(ch08::build_options(device, ch08::Division::opencl_default), "");
  EXPECT_EQ(ch08::build_options(device, ch08::Division::correctly_rounded),
            ch08::correctly_rounded_division(device) ? "-cl-fp32-correctly-rounded-divide-sqrt" : "");
  EXPECT_FALSE(ch08::division_summary(device, ch08::Division::correctly_rounded).empty());
}

TEST(PortedKernelLimits, WorkGroupLargerThanTheKernelAllowsIsAUsageError) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({8, 8});
  const ch08::Port& v = ch08::port("simple");
  EXPECT_THROW(ch08::OpenClJacobi(runtime(), program(v), v, sys, std::size_t{1} << 20), gpgpu::UsageError);
}

TEST(PortedKernelLimits, ImageTooLongForTheDeviceIsReported) {
  gpgpu::ocl::DeviceInfo small = runtime().info();
  small.image_max_buffer_size = 1000;
  const auto why = ch08::device_limitation(ch08::port("image"), {40, 40}, small);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("CL_DEVICE_IMAGE_MAX_BUFFER_SIZE"), std::string::npos);
  EXPECT_FALSE(ch08::device_limitation(ch08::port("local"), {40, 40}, small).has_value());
}

TEST(PortedKernelLimits, LayoutsMatchTheCudaSolvers) {
  const Grid g{100, 50};
  gpgpu::ocl::DeviceInfo device = runtime().info();
  const ch08::DeviceLayout aligned = ch08::device_layout(ch08::port("aligned"), g, device);
  EXPECT_EQ(aligned.ghost, 112);                            // nx+1 = 101 rounded up to 16
  EXPECT_EQ(aligned.x_length, 5216);                        // 112 + 5000 + 101 rounded up to 32
  EXPECT_EQ(ch08::device_layout(ch08::port("simple"), g, device).ghost, 101);
  EXPECT_EQ(ch08::device_layout(ch08::port("image"), g, device).ghost, 128);
  device.base_address_align_bits = 4096;                    // 512 bytes: 128 floats, like cudaMallocPitch
  const ch08::DeviceLayout pitched = ch08::device_layout(ch08::port("local"), g, device);
  EXPECT_EQ(pitched.pitch, 128);
  EXPECT_EQ(pitched.origin, gpgpu::jacobi::kPitchedGhostRows * 128);
  EXPECT_EQ(gpgpu::jacobi::kPitchedGhostRows, 2);
  EXPECT_EQ(pitched.x_length, (50 + 4) * 128);
  const ch08::DeviceBytes b = ch08::device_bytes(ch08::port("local"), g, device);
  EXPECT_DOUBLE_EQ(b.total, 4.0 * 12 * (50 + 4) * 128);
  EXPECT_DOUBLE_EQ(b.largest, 4.0 * (50 + 4) * 128);
}

}  // namespace

namespace {

TEST(PortedKernelState, EveryVariantKeepsTheSolverContract) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({37, 19});
  for (const ch08::Port& v : ch08::kPorts) {
    if (ch08::device_limitation(v, sys.grid, runtime())) continue;
    ch08::OpenClJacobi solver(runtime(), program(v), v, sys, kWorkGroup);
    EXPECT_TRUE(gpgpu::jacobi::checks::keeps_the_solver_contract(solver, sys)) << v.name;
  }
}

// The chapter's OpenCL variants, on a session of their own (as the chapter opens one).
TEST(PortedVariants, DescribeBuildAndRefuseAsTheChapterNeeds) {
  const auto session = gpgpu::ocl::open_session(gpgpu::ocl::device_options_from_environment());
  int work_group = 32;
  const ch08::Division division = ch08::Division::correctly_rounded;
  const std::vector<gpgpu::jacobi::Variant> variants = ch08::opencl_variants(work_group, division);
  ASSERT_EQ(variants.size(), ch08::kPorts.size());
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const ch08::Port& v = ch08::kPorts[i];
    const gpgpu::jacobi::Variant& spec = variants[i];
    EXPECT_EQ(spec.info.name, v.name);
    EXPECT_EQ(spec.info.backend, gpgpu::Backend::opencl);
    EXPECT_EQ(spec.info.source, v.kernel_file);
    EXPECT_EQ(spec.info.paper_name, v.paper_name);
    EXPECT_EQ(spec.info.timer, "OpenCL profiling events");
    EXPECT_EQ(spec.work, "jacobi9");
    const gpgpu::jacobi::checks::JacobiCase c{{45, 29}, 7, 0};
    if (spec.limitation(c.grid, *session)) continue;
    EXPECT_NO_THROW(spec.check_fits(c.grid, *session));
    const auto solver = spec.make(gpgpu::jacobi::checks::case_data(c).sys, *session);
    EXPECT_TRUE(gpgpu::jacobi::checks::solves_case(*solver, c)) << v.name;
    EXPECT_NE(solver->launch().find("local 32"), std::string::npos) << solver->launch();  // --wg read at make()
    // A grid beyond the device's memory, and work-groups beyond the device's, are usage errors.
    EXPECT_THROW(spec.check_fits({100000, 100000}, *session), gpgpu::UsageError) << v.name;
    work_group = static_cast<int>(gpgpu::ocl::runtime_of(*session).info().max_work_group_size) + 1;
    EXPECT_THROW(spec.check_fits(c.grid, *session), gpgpu::UsageError) << v.name;
    work_group = 32;
  }
}

// A row of this run on "GPU" (OpenCL rows name their device "<name> (OpenCL)", as the session does).
gpgpu::ResultRow timed_row(const std::string& variant, const std::string& backend, double seconds,
                           const std::string& device = "GPU") {
  gpgpu::ResultRow r;
  r.variant = variant;
  r.backend = backend;
  r.device = backend == "opencl" ? device + " (OpenCL)" : device;
  r.samples = {seconds};
  r.work = gpgpu::jacobi::work("jacobi9", {64, 64}, 100);
  return r;
}

TEST(CudaComparison, PairsEachOpenClRowWithItsCudaOriginal) {
  const std::vector<gpgpu::ResultRow> rows{timed_row("simple", "opencl", 0.0105), timed_row("local", "opencl", 0.0120),
                                           timed_row("cuda_simple", "cuda", 0.0100),
                                           timed_row("cuda_shared", "cuda", 0.0100),
                                           timed_row("cuda_texture", "cuda", 0.0100)};
  const auto pairs = ch08::cuda_comparison(rows);
  ASSERT_EQ(pairs.size(), 2u);  // image did not run: its CUDA original has no partner
  EXPECT_EQ(pairs[0].variant, "simple");
  EXPECT_EQ(pairs[0].cuda_variant, "cuda_simple");
  EXPECT_NEAR(pairs[0].ratio(), 1.05, 1e-12);
  EXPECT_EQ(pairs[1].variant, "local");
  EXPECT_EQ(pairs[1].cuda_variant, "cuda_shared");
  EXPECT_NEAR(pairs[1].ratio(), 1.2, 1e-12);
  const nlohmann::json j = pairs;
  EXPECT_EQ(j[0]["met"], true);
  // OpenCL on the CPU (PoCL) beside CUDA on the GPU compares two devices, not two APIs: no pair.
  const std::vector<gpgpu::ResultRow> mixed{timed_row("simple", "opencl", 0.5, "PoCL CPU"),
                                            timed_row("cuda_simple", "cuda", 0.01)};
  EXPECT_TRUE(ch08::cuda_comparison(mixed).empty());
  EXPECT_EQ(j[1]["met"], false);
  std::ostringstream out;
  ch08::print_cuda_comparison(out, pairs);
  EXPECT_NE(out.str().find("cuda_shared"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("within 10%"), std::string::npos) << out.str();
}

TEST(CudaComparison, PrintsNothingWithoutCudaRows) {
  const auto pairs = ch08::cuda_comparison({timed_row("simple", "opencl", 0.01), timed_row("image", "opencl", 0.01)});
  EXPECT_TRUE(pairs.empty());
  std::ostringstream out;
  ch08::print_cuda_comparison(out, pairs);
  EXPECT_TRUE(out.str().empty());
}

}  // namespace
