// The check of exercise 08, built against the skeleton (label `exercise`) and the worked answer
// (label `solution`): the OpenCL port of the pitched kernel matches the CPU double-precision
// reference from a random start at awkward sizes, odd and even iteration counts, two work-group
// sizes, and a grid taller than the 65535 work-groups dimension 1 may have.
#include <string>

#include <gtest/gtest.h>

#include "embedded/_08_pitched_cl.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/spectral.hpp"
#include "opencl_jacobi.hpp"

namespace {

using gpgpu::jacobi::Grid;

// The exercise's variant: the chapter's host code with the pitched layout, the student's kernel.
constexpr ch08::Variant kPitched{"pitched", "exercises/08_pitched_opencl/08_pitched.cl", "jacobi_pitched", "pitched",
                                 "05_pitched.cu", "CUDA 2D", "pitched, 2D NDRange",
                                 ch08::Layout::Pitched, 1, false, ch08::XAccess::Buffer};

gpgpu::ocl::Runtime& runtime() { return gpgpu::ocl::shared_runtime(); }
const cl::Program& program() { return runtime().program(gpgpu::embedded::_08_pitched_cl); }

struct Case {
  Grid grid;
  int iters;
  std::size_t work_group;
};

class PitchedPort : public ::testing::TestWithParam<Case> {};

TEST_P(PitchedPort, MatchesTheReference) {
  const Case c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 29);
  ch08::OpenClJacobi solver(runtime(), program(), kPitched, sys, c.work_group);
  solver.reset(x0);
  solver.iterate(c.iters, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solver.solution(), sys, x0, c.iters))
      << "work-group " << c.work_group;
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, PitchedPort,
                         ::testing::Values(Case{{1, 1}, 3, 64}, Case{{2, 7}, 1, 64}, Case{{2, 7}, 2, 64},
                                           Case{{17, 33}, 7, 64}, Case{{100, 3}, 4, 64}, Case{{130, 65}, 5, 96},
                                           Case{{64, 64}, 6, 64},
                                           // more rows than dimension 1 may have work-groups
                                           Case{{3, 70000}, 3, 64}),
                         [](const auto& info) {
                           std::string name = info.param.grid.str();
                           name += "_it" + std::to_string(info.param.iters);
                           name += "_wg" + std::to_string(info.param.work_group);
                           return name;
                         });

}  // namespace
