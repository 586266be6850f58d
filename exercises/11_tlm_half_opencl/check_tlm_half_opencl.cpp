// The check of exercise 11, built against the skeleton (label `exercise`) and the worked answer
// (label `solution`): the half-precision fused kernel matches the CPU double-precision reference
// within the FP16 tolerance (gpgpu::tlm::tolerance) at the awkward sizes and at 1, 8, 48 and 200
// steps, really stores halves (it differs from the FP32 kernel by more than FP32 rounding), and over
// 3000 steps still rings at the box's resonances.
#include <string>

#include <gtest/gtest.h>

#include "embedded/_11_fused_half_cl.hpp"
#include "gpgpu/tlm/checks.hpp"
#include "gpgpu/tlm/options.hpp"
#include "gpgpu/tlm/physics.hpp"
#include "opencl_tlm.hpp"

namespace {

using gpgpu::tlm::Storage;
using gpgpu::tlm::checks::Case;

gpgpu::ocl::Runtime& runtime() { return gpgpu::ocl::shared_runtime(); }

ch11::OpenClSolver half_solver(const gpgpu::tlm::Setup& setup) {
  const cl::Program& program = runtime().program(gpgpu::tlm::opencl_program_with(gpgpu::embedded::_11_fused_half_cl));
  return {runtime(), program, setup, ch11::OpenClKernels::fused, Storage::f16};
}

class HalfStorage : public ::testing::TestWithParam<Case> {};

TEST_P(HalfStorage, MatchesTheReference) {
  ch11::OpenClSolver solver = half_solver(gpgpu::tlm::checks::setup_of(GetParam()));
  EXPECT_TRUE(gpgpu::tlm::checks::matches_reference(solver, GetParam(), Storage::f16));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, HalfStorage, ::testing::ValuesIn(gpgpu::tlm::checks::awkward_cases(false)),
                         gpgpu::tlm::checks::case_name);
// 1, 8, 48 and 200 steps of the chapter's run from rest (below half's range at first) and of random pulses.
INSTANTIATE_TEST_SUITE_P(StepCounts, HalfStorage, ::testing::ValuesIn(gpgpu::tlm::checks::bound_cases()),
                         gpgpu::tlm::checks::case_name);

TEST(HalfStorage, StoresHalvesNotFloats) {
  const Case c = gpgpu::tlm::checks::awkward_cases(false)[3];
  const auto& setup = gpgpu::tlm::checks::setup_of(c);
  ch11::OpenClSolver half = half_solver(setup);
  const cl::Program& fp32 = runtime().program(gpgpu::tlm::opencl_program("kernels/tlm/opencl/11_fused.cl"));
  ch11::OpenClSolver single(runtime(), fp32, setup, ch11::OpenClKernels::fused);
  for (ch11::OpenClSolver* s : {&half, &single}) {
    s->reset(gpgpu::tlm::checks::random_pulses(c.mesh, 7));
    s->run(c.steps);
  }
  const std::vector<float> h = half.pulses(), f = single.pulses();
  const std::vector<double> fd(f.begin(), f.end());
  const gpgpu::Verification v = gpgpu::compare_normwise(h, fd, gpgpu::tlm::tolerance(Storage::f16, c.steps));
  EXPECT_TRUE(v.pass) << v.summary();
  EXPECT_GT(v.rel_l2, 10 * gpgpu::tlm::tolerance(Storage::f32, c.steps)) << "no more different than FP32: " << v.summary();
}

TEST(HalfStorage, TheBoxStillRingsAtItsResonances) {
  // The chapter's quick cavity from rest, 3000 steps: the probe of the half-precision run shows the
  // same TM lines where the mesh puts them.
  using namespace gpgpu::tlm;
  const Scenario s = Scenario::cavity;
  static const gpgpu::tlm::Setup setup{make_structure(s, quick_mesh(s)), make_drive(s, quick_mesh(s)), quick_steps(s)};
  ch11::OpenClSolver solver = half_solver(setup);
  solver.reset(std::vector<float>(static_cast<std::size_t>(kPorts * setup.structure.mesh.nodes()), 0.0f));
  solver.run(setup.steps);
  const std::vector<float> probe = solver.probe();
  const std::vector<double> signal = probe_component(std::vector<double>(probe.begin(), probe.end()), setup.drive.probe.polarisation);
  const PhysicsCheck c = check_resonances(setup.structure, setup.drive, signal);
  EXPECT_TRUE(c.checked);
  EXPECT_TRUE(c.pass) << c.summary;
}

}  // namespace
