// Chapter 11's OpenCL variants (label opencl: PoCL without a GPU, the GPU's own driver with one)
// through the chapter's host code at the awkward sizes against the CPU double-precision reference
// (random pulses, a random source, two run() calls, outputs poisoned with NaN), at the step counts of
// the tolerance's tests (wrong results must fail), the usage errors, and work-groups a kernel cannot
// take as a limitation of the device.
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "gpgpu/errors.hpp"
#include "gpgpu/opencl/opener.hpp"
#include "gpgpu/tlm/checks.hpp"
#include "opencl_variants.hpp"

namespace {

using ch11::OpenClKernels;
using gpgpu::tlm::checks::Case;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::ocl::open_session(gpgpu::ocl::device_options_from_environment());
  return *s;
}

struct Kernels {
  const char* name;
  OpenClKernels kernels;
};

class Ch11OpenCl : public ::testing::TestWithParam<std::tuple<Kernels, Case>> {};

TEST_P(Ch11OpenCl, MatchesTheReference) {
  const auto& [k, c] = GetParam();
  const gpgpu::tlm::Variant spec = ch11::opencl_variant(k.kernels);
  const auto solver = spec.make(gpgpu::tlm::checks::setup_of(c), session());
  EXPECT_TRUE(gpgpu::tlm::checks::matches_reference(*solver, c, spec.storage));
}

TEST_P(Ch11OpenCl, TellsRightFromWrong) {
  const auto& [k, c] = GetParam();
  const gpgpu::tlm::Variant spec = ch11::opencl_variant(k.kernels);
  const auto solver = spec.make(gpgpu::tlm::checks::setup_of(c), session());
  EXPECT_TRUE(gpgpu::tlm::checks::tells_right_from_wrong(*solver, c, spec.storage));
}

std::string name(const ::testing::TestParamInfo<Ch11OpenCl::ParamType>& info) {
  const auto& [k, c] = info.param;
  return std::string(k.name) + "_" + c.name;
}

// Beyond the L2 only on a GPU: on a CPU device the kernels of 4 million nodes, and the CPU
// reference beside them, are too slow for a test.
std::vector<Case> cases() {
  return gpgpu::tlm::checks::awkward_cases(gpgpu::ocl::runtime_of(session()).info().is_gpu);
}

auto kernels() {
  return ::testing::Values(Kernels{"coalesced", OpenClKernels::coalesced}, Kernels{"fused", OpenClKernels::fused});
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, Ch11OpenCl, ::testing::Combine(kernels(), ::testing::ValuesIn(cases())), name);
// 1, 8, 48 and 200 steps of the chapter's run from rest and of random pulses (checks::bound_cases).
INSTANTIATE_TEST_SUITE_P(StepCounts, Ch11OpenCl,
                         ::testing::Combine(kernels(), ::testing::ValuesIn(gpgpu::tlm::checks::bound_cases())), name);

TEST(Ch11OpenClVariants, RefuseMeshesTheDeviceCannotHold) {
  for (OpenClKernels k : {OpenClKernels::coalesced, OpenClKernels::fused}) {
    const gpgpu::tlm::Variant spec = ch11::opencl_variant(k);
    ASSERT_TRUE(spec.check_fits);
    EXPECT_THROW(spec.check_fits({{1024, 1024, 162, 1e-3}, 2000000000}, session()), gpgpu::UsageError) << spec.info.name;
    EXPECT_NO_THROW(spec.check_fits({{32, 32, 32, 1e-3}, 1000}, session())) << spec.info.name;
  }
}

TEST(Ch11OpenClVariants, WorkGroupsTheKernelCannotTakeAreALimitationNotAnError) {
  gpgpu::ocl::Runtime& runtime = gpgpu::ocl::runtime_of(session());
  for (OpenClKernels k : {OpenClKernels::coalesced, OpenClKernels::fused}) {
    const gpgpu::tlm::Variant spec = ch11::opencl_variant(k);
    ASSERT_TRUE(spec.limitation);
    EXPECT_EQ(spec.limitation({{32, 32, 32, 1e-3}, 1000}, session()), std::nullopt) << spec.info.name;
    const cl::Program& program = runtime.program(gpgpu::tlm::opencl_program(spec.info.source));
    const std::optional<std::string> why =
        ch11::work_group_limitation(runtime, program, k, gpgpu::tlm::Storage::f32, std::size_t{1} << 30);
    ASSERT_TRUE(why.has_value()) << spec.info.name;
    EXPECT_NE(why->find("work-groups of at most"), std::string::npos) << *why;
  }
}

TEST(Ch11OpenClVariants, LaunchOneWorkItemPerNodeInSegmentsOf64) {
  const Case c = gpgpu::tlm::checks::awkward_cases(false)[4];  // 130 x 3 x 2
  const gpgpu::tlm::Variant spec = ch11::opencl_variant(OpenClKernels::fused);
  EXPECT_EQ(spec.make(gpgpu::tlm::checks::setup_of(c), session())->launch(),
            "12 link-line arrays, x rows of 192 (segments of 64); global 192 x 3 x 2, local 64, 1 kernel per step");
}

}  // namespace
