// The check of exercise 08, built against the skeleton (label `exercise`) and the worked answer
// (label `solution`): the OpenCL port of the pitched kernel matches the CPU double-precision
// reference from a random start at awkward sizes, odd and even iteration counts, two work-group
// sizes, a grid taller than the 65535 work-groups dimension 1 may have, and a relaxation factor other
// than the default (a kernel that hard-codes ω = 0.8 fails), and no local memory, by the compiler's count
// and in the source (the kernel is the pitched port, not the chapter's local one). Measure.* reports its
// rate beside the chapter's local port against the limit measured in the same run (no timed
// assertion).
#include <iostream>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "embedded/_08_pitched_cl.hpp"
#include "gpgpu/embedded_text.hpp"
#include "gpgpu/harness/source_code.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/measure.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/spectral.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "gpgpu/opencl/cl.hpp"
#include "gpgpu/opencl/opener.hpp"
#include "opencl_variants.hpp"
#include "ports.hpp"

namespace {

using gpgpu::jacobi::Grid;

// The exercise's variant: the chapter's host code with the pitched layout, the student's kernel.
constexpr ch08::Port kPitched{"pitched", "exercises/08_pitched_opencl/08_pitched.cl", "jacobi_pitched", "pitched",
                                 "05_pitched.cu", "CUDA 2D", "pitched, 2D NDRange",
                                 ch08::Layout::Pitched, 1, false, ch08::XAccess::Buffer};

gpgpu::ocl::Runtime& runtime() { return gpgpu::ocl::shared_runtime(); }
// Built as the chapter builds its kernels: correctly rounded division where the device offers it.
const cl::Program& program(gpgpu::ocl::Runtime& on = runtime()) {
  return on.program(gpgpu::embedded::_08_pitched_cl, ch08::build_options(on.device(), ch08::Division::correctly_rounded));
}

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

// The kernel must use the ω it is given: the same iteration at ω = 0.6 against the reference at 0.6.
TEST(PitchedPort, UsesTheOmegaItIsGiven) {
  const Grid grid{17, 33};
  const int iters = 4;
  const double omega = 0.6;
  const auto sys = gpgpu::jacobi::assemble_bidomain(grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(grid.nodes(), 31);
  ch08::OpenClJacobi solver(runtime(), program(), kPitched, sys, 64);
  solver.reset(x0);
  solver.iterate(iters, static_cast<float>(omega));
  const std::vector<double> ref = gpgpu::jacobi::jacobi_reference(sys, x0, iters, omega);
  const gpgpu::Verification v = gpgpu::compare_normwise(solver.solution(), ref, gpgpu::jacobi::jacobi_tolerance(iters));
  EXPECT_TRUE(v.pass) << "ω = " << omega << ": " << v.summary();
}

// The exercise ports 05_pitched.cu, which reads x from global memory: a kernel with a __local tile
// (the chapter's local port under the exercise's name) computes the iteration but is not the port.
// Two witnesses, since neither holds on every OpenCL: the compiler's own count of the kernel's local
// memory, held against a kernel that declares none built by the same compiler (PoCL 3 says 0 for it,
// NVIDIA's OpenCL 1; the shortcut's tile 3096 bytes on PoCL 3), and the source itself, because
// PoCL 5.0's CPU driver counted no more for a static __local array than for a kernel without one.
std::size_t local_bytes(const cl::Program& built, const char* name) {
  const cl::Kernel kernel = GPGPU_CL(cl::Kernel(built, name));
  return GPGPU_CL(kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(runtime().device()));
}
// The source as the compiler reads it (gpgpu::harness::code_without_comments: splices joined,
// comments and string or character literals blanked), so that a comment or a printf may say "local"
// and get_local_id() may be called: what is left declares local memory only through the
// address-space qualifier `local` or `__local`.
bool declares_local_memory(std::string_view source) {
  const std::string code = gpgpu::harness::code_without_comments(source, gpgpu::harness::Literals::blank);
  static const std::regex kQualifier(R"(\b(__)?local\b)");
  return std::regex_search(code, kQualifier);
}
TEST(PitchedPort, UsesNoLocalMemory) {
  constexpr gpgpu::EmbeddedText kNoLocal{"exercises/08_pitched_opencl/check_pitched_opencl.cpp (a kernel without local memory)",
                                         "kernel void no_local(global float* x) { x[get_global_id(0)] = 1.0f; }"};
  const std::size_t none = local_bytes(runtime().program(kNoLocal), "no_local");
  const std::size_t bytes = local_bytes(program(), std::string(kPitched.kernel_name).c_str());
  std::cout << "local memory by the compiler's count: the kernel " << bytes << " B, a kernel without any " << none
            << " B\n";
  EXPECT_LE(bytes, none) << "the kernel uses " << bytes << " bytes of local memory (a kernel without any: " << none
                         << "); 05_pitched.cu reads x from global memory, without a tile";
  EXPECT_FALSE(declares_local_memory(gpgpu::embedded::_08_pitched_cl.text))
      << gpgpu::embedded::_08_pitched_cl.path << " declares local memory (`__local`); 05_pitched.cu reads x "
      << "from global memory, without a tile";
}
TEST(PitchedPort, FindsLocalMemoryInSource) {  // the source witness itself, on both of its sides
  EXPECT_TRUE(declares_local_memory("kernel void k() { __local float tile[8]; }"));
  EXPECT_TRUE(declares_local_memory("kernel void k(local float* t) {}"));
  EXPECT_FALSE(declares_local_memory("kernel void k() { int i = get_local_id(0); } // a __local tile\n"));
  EXPECT_FALSE(declares_local_memory("/* no local tile */ kernel void k(global float* localish) {}"));
  EXPECT_FALSE(declares_local_memory(R"(kernel void k() { printf("local id %d // \"local\"\n", 1); })"));
  EXPECT_TRUE(declares_local_memory(R"(kernel void k() { printf("/*"); __local float t[4]; })"));
  EXPECT_TRUE(declares_local_memory("kernel void k() { __lo\\\ncal float t[4]; }"));  // a line spliced
}

// The measurement: your kernel beside the chapter's `local` port (chapter 06's kernel) on the same
// OpenCL device, against the limit the device reaches for their read:write mix, measured in the same
// run. On a CPU device (PoCL in CI) the grid is small. It asserts only that the timed kernel
// computes the iteration.
TEST(Measure, YourKernelBesideTheLocalPortAgainstTheLimit) {
  const auto session = gpgpu::ocl::open_session(gpgpu::ocl::device_options_from_environment());
  gpgpu::ocl::Runtime& device = gpgpu::ocl::runtime_of(*session);
  const bool cpu = device.info().is_cpu;
  const Grid g = cpu ? Grid{512, 512} : Grid{4096, 2048};
  const int iters = cpu ? 5 : 20;
  const auto omega = static_cast<float>(gpgpu::jacobi::kDefaultOmega);
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const std::vector<float> x0(static_cast<std::size_t>(g.nodes()), 0.0f);
  const gpgpu::Limit limit = session->stream_limit(gpgpu::jacobi::stream_mix("jacobi9", g));
  const gpgpu::Work work = gpgpu::jacobi::work("jacobi9", g, iters);
  ch08::OpenClJacobi yours(device, program(device), kPitched, sys, 64);
  yours.reset(x0);
  gpgpu::jacobi::measure::report(std::cout, "your kernel (pitched)", work, limit, [&] { return yours.iterate(iters, omega); });
  const ch08::Port& local = ch08::port("local");
  ch08::OpenClJacobi chapter(device, ch08::variant_program(device, local, ch08::Division::correctly_rounded), local, sys, 64);
  chapter.reset(x0);
  gpgpu::jacobi::measure::report(std::cout, "the chapter's local port", work, limit, [&] { return chapter.iterate(iters, omega); });
  yours.reset(x0);
  yours.iterate(3, omega);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(yours.solution(), sys, x0, 3));
}

}  // namespace
