// Chapter 11 on a GPU (label cuda; skipped without one): every CUDA variant through the chapter's
// host code at the awkward sizes, a mesh beyond the L2 included, against the CPU double-precision
// reference (random pulses, a random source, two run() calls, outputs poisoned with NaN), and at the
// step counts of the tolerance's tests (wrong results must fail); the half-precision variant within
// its own tolerance and really in half precision; the usage errors.
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <memory>

#include <gtest/gtest.h>

#include "cuda_variants.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/tlm/checks.hpp"

namespace {

using ch11::CudaKernels;
using gpgpu::tlm::checks::Case;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cuda::open_session(0);
  return *s;
}

struct Kernels {
  const char* name;
  CudaKernels kernels;
};

class Ch11Cuda : public ::testing::TestWithParam<std::tuple<Kernels, Case>> {};

TEST_P(Ch11Cuda, MatchesTheReference) {
  const auto& [k, c] = GetParam();
  const gpgpu::tlm::Variant spec = ch11::cuda_variant(k.kernels);
  const auto solver = spec.make(gpgpu::tlm::checks::setup_of(c), session());
  EXPECT_TRUE(gpgpu::tlm::checks::matches_reference(*solver, c, spec.storage));
}

TEST_P(Ch11Cuda, TellsRightFromWrong) {
  const auto& [k, c] = GetParam();
  const gpgpu::tlm::Variant spec = ch11::cuda_variant(k.kernels);
  const auto solver = spec.make(gpgpu::tlm::checks::setup_of(c), session());
  EXPECT_TRUE(gpgpu::tlm::checks::tells_right_from_wrong(*solver, c, spec.storage));
}

std::string name(const ::testing::TestParamInfo<Ch11Cuda::ParamType>& info) {
  const auto& [k, c] = info.param;
  return std::string(k.name) + "_" + c.name;
}

auto kernels() {
  return ::testing::Values(Kernels{"aos", CudaKernels::aos}, Kernels{"coalesced", CudaKernels::coalesced},
                           Kernels{"fused", CudaKernels::fused}, Kernels{"fused_half", CudaKernels::fused_half},
                           Kernels{"fused_x2", CudaKernels::fused_x2}, Kernels{"fused_x4", CudaKernels::fused_x4},
                           Kernels{"fused_half_x2", CudaKernels::fused_half_x2},
                           Kernels{"fused_half_x4", CudaKernels::fused_half_x4},
                           Kernels{"fused_half_loads_first", CudaKernels::fused_half_loads_first});
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, Ch11Cuda,
                         ::testing::Combine(kernels(), ::testing::ValuesIn(gpgpu::tlm::checks::awkward_cases(/*beyond_l2=*/true))),
                         name);
// 1, 8, 48 and 200 steps of the chapter's run from rest (below half's smallest subnormal at first:
// cuda_fused_half's right result must pass on the floor) and of random pulses.
INSTANTIATE_TEST_SUITE_P(StepCounts, Ch11Cuda,
                         ::testing::Combine(kernels(), ::testing::ValuesIn(gpgpu::tlm::checks::bound_cases())), name);

TEST(Ch11CudaVariants, HalfStorageIsReallyHalf) {
  const Case c = gpgpu::tlm::checks::awkward_cases(false)[3];
  const auto& setup = gpgpu::tlm::checks::setup_of(c);
  ch11::CudaSolver half(setup, CudaKernels::fused_half), single(setup, CudaKernels::fused);
  for (ch11::CudaSolver* s : {&half, &single}) {
    s->reset(gpgpu::tlm::checks::random_pulses(c.mesh, 7));
    s->run(c.steps);
  }
  const std::vector<float> h = half.pulses(), f = single.pulses();
  const std::vector<double> fd(f.begin(), f.end());
  const gpgpu::Verification v = gpgpu::compare_normwise(h, fd, gpgpu::tlm::tolerance(gpgpu::tlm::Storage::f16, c.steps));
  EXPECT_TRUE(v.pass) << v.summary();
  EXPECT_GT(v.rel_l2, 10 * gpgpu::tlm::tolerance(gpgpu::tlm::Storage::f32, c.steps)) << v.summary();
}

// 11_03_fused_vector.cu and 11_04_fused_loads_first.cu do each node's arithmetic in 11_02_fused.cu's
// order: the same pulses and probe, bit for bit, at the awkward sizes (the 256 x 256 x 64 mesh beyond
// the L2 included) and at the step counts, in FP32 and in half storage.
TEST(Ch11CudaVariants, VectorKernelsAreTheFusedKernelBitForBit) {
  std::vector<Case> cases = gpgpu::tlm::checks::awkward_cases(/*beyond_l2=*/true);
  for (const Case& c : gpgpu::tlm::checks::bound_cases()) cases.push_back(c);
  const std::pair<CudaKernels, CudaKernels> pairs[] = {{CudaKernels::fused_x2, CudaKernels::fused},
                                                       {CudaKernels::fused_x4, CudaKernels::fused},
                                                       {CudaKernels::fused_half_x2, CudaKernels::fused_half},
                                                       {CudaKernels::fused_half_x4, CudaKernels::fused_half},
                                                       {CudaKernels::fused_half_loads_first, CudaKernels::fused_half}};
  for (const Case& c : cases)
    for (const auto& [vector, fused] : pairs) {
      const auto& setup = gpgpu::tlm::checks::setup_of(c);
      ch11::CudaSolver ours(setup, vector), before(setup, fused);
      const auto a = gpgpu::tlm::checks::run_case(ours, c, c.steps), b = gpgpu::tlm::checks::run_case(before, c, c.steps);
      const std::string what = c.name + ", " + ch11::cuda_variant(vector).info.name;
      ASSERT_EQ(a.pulses.size(), b.pulses.size()) << what;
      EXPECT_EQ(0, std::memcmp(a.pulses.data(), b.pulses.data(), a.pulses.size() * sizeof(float))) << what;
      ASSERT_EQ(a.probe.size(), b.probe.size()) << what;
      EXPECT_EQ(0, std::memcmp(a.probe.data(), b.probe.data(), a.probe.size() * sizeof(float))) << what;
    }
}

// The largest mesh the kernels can index (12 x 179 million pulses) with a probe of 2^31 steps still
// fits an 80 GB GPU, so the device's memory is capped for the refusal: GPGPU_DEVICE_MEMORY_LIMIT=64M
// (the core's cap on what cudaMemGetInfo reports free), under which a 128^3 mesh (96 MiB or more:
// one FP32 copy of 12 x 2^21 pulses, or two FP16 ones) cannot fit and a 16^3 one (under 2 MiB) can.
TEST(Ch11CudaVariants, RefuseMeshesTheDeviceCannotHold) {
  (void)session();  // the device opened before the cap, as a run opens it before checking sizes
  ASSERT_EQ(setenv("GPGPU_DEVICE_MEMORY_LIMIT", "64M", 1), 0);
  struct Uncap {
    ~Uncap() { unsetenv("GPGPU_DEVICE_MEMORY_LIMIT"); }
  } uncap;
  for (CudaKernels k : {CudaKernels::aos, CudaKernels::coalesced, CudaKernels::fused, CudaKernels::fused_half,
                        CudaKernels::fused_x4, CudaKernels::fused_half_x4, CudaKernels::fused_half_loads_first}) {
    const gpgpu::tlm::Variant spec = ch11::cuda_variant(k);
    ASSERT_TRUE(spec.check_fits);
    EXPECT_THROW(spec.check_fits({{128, 128, 128, 1e-3}, 1000}, session()), gpgpu::UsageError) << spec.info.name;
    EXPECT_NO_THROW(spec.check_fits({{16, 16, 16, 1e-3}, 1000}, session())) << spec.info.name;
  }
}

TEST(Ch11CudaVariants, LaunchThePapersBlocksOf64) {
  const Case c = gpgpu::tlm::checks::awkward_cases(false)[4];  // 130 x 3 x 2: three segments per row
  const auto& setup = gpgpu::tlm::checks::setup_of(c);
  EXPECT_EQ(ch11::CudaSolver(setup, CudaKernels::coalesced).launch(),
            "12 link-line arrays, x rows of 192 (segments of 64); grid 3 x 3 x 2, block 64, 2 launches per step (scatter, connect)");
  EXPECT_EQ(ch11::CudaSolver(setup, CudaKernels::fused).launch(),
            "12 link-line arrays, x rows of 192 (segments of 64); grid 3 x 3 x 2, block 64, 1 launch per step");
  EXPECT_EQ(ch11::CudaSolver(setup, CudaKernels::fused_half_x4).launch(),
            "12 link-line arrays, x rows of 192 (segments of 64); grid 2 x 1 x 2, block 32 x 4 (4 nodes of a row per "
            "thread), 1 launch per step");
}

}  // namespace
