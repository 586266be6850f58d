// The tolerance of half storage (reference.hpp: t·size + floor) at the step counts a user may pick,
// on the CPU model of cuda_fused_half (half_model.hpp; the kernel is kernels/tlm/cuda/11_02_fused.cu):
// the right result passes at 1, 8, 48 and 200 steps; wrong ones fail wherever the field is above the
// floor; the chapter's run is within the floor before its source rises, where the relative part
// alone fails the right result; and the floor is a random walk's, neither exceeded nor loose by
// orders of magnitude.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/harness/random.hpp"
#include "gpgpu/tlm/checks.hpp"
#include "gpgpu/tlm/half_model.hpp"

namespace gpgpu::tlm {
namespace {

using checks::round_to_half;

TEST(RoundToHalf, RoundsToNearestEvenWithSubnormalsAndFlushes) {
  const float sub = std::ldexp(1.0f, -24);  // half's smallest subnormal
  EXPECT_EQ(round_to_half(1.0f), 1.0f);
  EXPECT_EQ(round_to_half(1.0f + std::ldexp(1.0f, -11)), 1.0f);                    // a tie, to even
  EXPECT_EQ(round_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(round_to_half(0.1f), 0.0999755859375f);
  EXPECT_EQ(round_to_half(65504.0f), 65504.0f);
  EXPECT_EQ(round_to_half(65519.0f), 65504.0f);
  EXPECT_TRUE(std::isinf(round_to_half(65520.0f)));
  EXPECT_EQ(round_to_half(std::ldexp(1.0f, -14)), std::ldexp(1.0f, -14));          // smallest normal
  EXPECT_EQ(round_to_half(std::ldexp(1.0f, -14) + sub / 2), std::ldexp(1.0f, -14));  // a tie, to even
  EXPECT_EQ(round_to_half(5 * sub), 5 * sub);
  EXPECT_EQ(round_to_half(sub), sub);
  EXPECT_EQ(round_to_half(1.5f * sub), 2 * sub);
  EXPECT_EQ(round_to_half(0.75f * sub), sub);
  EXPECT_EQ(round_to_half(sub / 2), 0.0f);  // a tie between 0 and 2^-24: flushed
  EXPECT_EQ(round_to_half(3 * sub / 2), 2 * sub);
  EXPECT_EQ(round_to_half(1e-11f), 0.0f);
  EXPECT_TRUE(std::signbit(round_to_half(-1e-11f)));
  EXPECT_EQ(round_to_half(-0.75f * sub), -sub);
}

class HalfStorageBound : public ::testing::TestWithParam<checks::Case> {};

TEST_P(HalfStorageBound, TellsRightFromWrong) {
  const checks::Case& c = GetParam();
  checks::HalfStorageModel model(checks::setup_of(c));
  EXPECT_TRUE(checks::tells_right_from_wrong(model, c, Storage::f16));
}

TEST_P(HalfStorageBound, JudgesTheChapterRunOnceTheSourceHasRisen) {
  // From rest, the Gaussian is e^-36 V at step 0 and e^-25 V at step 8: every pulse flushes to zero
  // and only the floor passes the right result. From step 48 on, the field is judged.
  const checks::Case& c = GetParam();
  const ReferenceRun& ref = checks::reference_of(c);
  const Tolerance t = tolerance(Storage::f16, c.steps, c.mesh);
  EXPECT_EQ(below_floor(ref, t), c.from_rest && c.steps <= 8) << c.name;
  if (!below_floor(ref, t)) return;
  checks::HalfStorageModel model(checks::setup_of(c));
  const checks::Outcome o = checks::run_case(model, c, c.steps);
  for (float x : o.pulses) ASSERT_EQ(x, 0.0f) << c.name << ": the field should be below half's smallest subnormal";
  EXPECT_FALSE(compare_run(o.pulses, o.probe, ref, {t.relative, 0.0}).all().pass) << c.name;
  const Verification right = compare_run(o.pulses, o.probe, ref, t).all();
  EXPECT_TRUE(right.pass) << c.name;
  // The verdict says what was compared, in volts: the relative error (1) and tolerance (millions) say nothing.
  EXPECT_EQ(right.summary().rfind("PASS: abs. error ", 0), 0u) << right.summary();
  EXPECT_NE(right.summary().find(" V allowed (the field is within half storage's floor: not judged)"), std::string::npos)
      << right.summary();
  // A field of 1 V where the reference has picovolts is wrong, short run or not.
  std::vector<float> wrong = o.pulses;
  wrong[wrong.size() / 2] = 1.0f;
  const Verification v = compare_run(wrong, o.probe, ref, t).all();
  EXPECT_FALSE(v.pass) << c.name;
  EXPECT_EQ(v.summary().rfind("FAIL: abs. error 1.0e+00 V > ", 0), 0u) << v.summary();
}

INSTANTIATE_TEST_SUITE_P(StepCounts, HalfStorageBound, ::testing::ValuesIn(checks::bound_cases()), checks::case_name);

// The floor's argument, checked: random pulses of at most 1e-7 V and no source put every pulse in
// half's subnormal range, where each store errs by 0 or ±2^-25. The error must stay within the
// bound, and, as a random walk does, at a steady share of it (about a quarter) at every step count.
TEST(HalfStorageFloor, HoldsAsARandomWalkWhereEveryPulseIsSubnormal) {
  const Mesh mesh{19, 7, 5, 1e-3};
  Drive d;
  d.source = {3, 3, 2, 2};
  d.probe = {12, 4, 1, 2};
  const int steps = 200;
  const tlm::Setup setup{make_structure(Scenario::cavity, mesh), d, steps};  // in a TEST, Setup is gtest's
  const std::vector<float> initial = harness::random_values<float>(kPorts * mesh.nodes(), 5, -1e-7f, 1e-7f);
  checks::HalfStorageModel model(setup);
  model.reset(initial);
  int done = 0;
  for (int n : checks::bound_steps()) {
    model.run(n - done);
    done = n;
    const ReferenceRun ref = run_reference(setup.structure, d, initial, n);
    const std::vector<float> x = model.pulses();
    double e2 = 0;
    for (std::size_t k = 0; k < x.size(); ++k) e2 += (x[k] - ref.result.pulses[k]) * (x[k] - ref.result.pulses[k]);
    const Tolerance t = tolerance(Storage::f16, n, mesh);
    const double share = std::sqrt(e2) / (t.relative * std::sqrt(ref.energy.back()) + t.absolute);
    EXPECT_LT(share, 0.5) << n << " steps";
    EXPECT_GT(share, 0.1) << n << " steps";
  }
}

}  // namespace
}  // namespace gpgpu::tlm
