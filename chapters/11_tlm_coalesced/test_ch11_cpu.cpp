// Chapter 11's CPU solver against the double-precision reference at the awkward sizes (random
// pulses, a random source, two run() calls, outputs poisoned), on one thread and on three, and at
// the step counts of the tolerance's tests, where wrong results must fail.
#include <gtest/gtest.h>

#include "cpu_variants.hpp"
#include "gpgpu/tlm/checks.hpp"

namespace {

using gpgpu::tlm::checks::Case;

class Ch11Cpu : public ::testing::TestWithParam<Case> {};

TEST_P(Ch11Cpu, OneThreadMatchesTheReference) {
  ch11::CpuSolver solver(gpgpu::tlm::checks::setup_of(GetParam()), 1);
  EXPECT_TRUE(gpgpu::tlm::checks::matches_reference(solver, GetParam(), gpgpu::tlm::Storage::f32));
}

TEST_P(Ch11Cpu, ThreeThreadsMatchTheReference) {
  ch11::CpuSolver solver(gpgpu::tlm::checks::setup_of(GetParam()), 3);
  EXPECT_TRUE(gpgpu::tlm::checks::matches_reference(solver, GetParam(), gpgpu::tlm::Storage::f32));
}

TEST_P(Ch11Cpu, TellsRightFromWrong) {
  ch11::CpuSolver solver(gpgpu::tlm::checks::setup_of(GetParam()), 2);
  EXPECT_TRUE(gpgpu::tlm::checks::tells_right_from_wrong(solver, GetParam(), gpgpu::tlm::Storage::f32));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, Ch11Cpu, ::testing::ValuesIn(gpgpu::tlm::checks::awkward_cases(false)),
                         gpgpu::tlm::checks::case_name);
// 1, 8, 48 and 200 steps of the chapter's run from rest (1e-16 V at the first step) and of random
// pulses: FP32's relative tolerance holds from the first step and rejects wrong results at each.
INSTANTIATE_TEST_SUITE_P(StepCounts, Ch11Cpu, ::testing::ValuesIn(gpgpu::tlm::checks::bound_cases()),
                         gpgpu::tlm::checks::case_name);

TEST(Ch11Cpu, ThreadCountsAgreeToTheLastBit) {
  // Every node is computed by the same code whichever thread runs it: no reduction, no reordering.
  const Case c = gpgpu::tlm::checks::awkward_cases(false)[3];
  const auto& setup = gpgpu::tlm::checks::setup_of(c);
  ch11::CpuSolver one(setup, 1), four(setup, 4);
  for (ch11::CpuSolver* s : {&one, &four}) {
    s->reset(gpgpu::tlm::checks::random_pulses(c.mesh, 3));
    s->run(c.steps);
  }
  EXPECT_EQ(one.pulses(), four.pulses());
  EXPECT_EQ(one.probe(), four.probe());
}

TEST(Ch11Cpu, VectorisedRowsAgreeWithNodeByNodeToTheLastBit) {
  // The vectorised inner rows must compute the same floats as the node-by-node path: the cases with
  // rows of 63, 67 and 130 nodes and the filter (rows that iris edges cross, rows that they do not).
  for (const Case& c : gpgpu::tlm::checks::awkward_cases(false)) {
    const auto& setup = gpgpu::tlm::checks::setup_of(c);
    ch11::CpuSolver vectorised(setup, 2), node_by_node(setup, 2, /*vectorise=*/false);
    for (ch11::CpuSolver* s : {&vectorised, &node_by_node}) {
      s->reset(gpgpu::tlm::checks::random_pulses(c.mesh, 5));
      s->run(c.steps);
    }
    EXPECT_EQ(vectorised.pulses(), node_by_node.pulses()) << c.name;
    EXPECT_EQ(vectorised.probe(), node_by_node.probe()) << c.name;
  }
}

TEST(Ch11Cpu, RefusesMoreStepsThanItsProbeHolds) {
  const Case c = gpgpu::tlm::checks::awkward_cases(false)[0];
  ch11::CpuSolver solver(gpgpu::tlm::checks::setup_of(c), 1);
  solver.reset(gpgpu::tlm::checks::random_pulses(c.mesh, 1));
  EXPECT_THROW(solver.run(c.steps + 1), std::logic_error);
}

}  // namespace
