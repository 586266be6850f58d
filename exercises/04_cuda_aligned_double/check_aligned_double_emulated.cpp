// The CPU check of exercise 04 (label cpu, no GPU needed): the offset's properties, and your kernel,
// unchanged, on the CPU emulation of the CUDA thread model (cuda_emulation.hpp) with the ghost
// layout your offset gives, against the double-precision reference to near double rounding, at the
// default ω and at another (a kernel that hard-codes 0.8 fails); each iterate lies between guard
// zones of NaN, and every guard and ghost must be as it was after the run (a thread past the last
// unknown that writes fails). It says nothing about alignment on
// a GPU or speed; the GPU check does. The include path holds the student's folder, the exercise's
// interface and copies of the headers the kernel and the emulation need (CMakeLists.txt).
#include "jacobi/cuda/tests/cuda_emulation.hpp"

#include <array>
#include <vector>

#include <gtest/gtest.h>

#define GPGPU_CUDA_EMULATION
#include <aligned_double.cu>  // the student's file (exercises/ or solutions/: the include path decides)

#include "aligned_double_checks.hpp"
#include "gpgpu/harness/watchdog.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/guard_zones.hpp"

namespace {

// A kernel that never returns (a loop without its step, say) fails the check after 40 s, naming the
// test, within the CTest timeout of a minute.
[[maybe_unused]] const auto* const kWatchdog = gpgpu::harness::add_watchdog(std::chrono::seconds(40));

using ex04::checks::near_double_rounding;

// `iters` iterations of the kernel on the emulation, in blocks of `block` threads; x and x_new with
// the offset for 128-byte lines of doubles, the unknowns of the iterate not yet written NaN, each
// between guard zones (guarded_iterates). Everything outside the unknowns must be as it was.
std::vector<double> run_emulated(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0, int iters, int block,
                                 double omega) {
  const gpgpu::jacobi::Grid g = sys.grid;
  const std::int64_t offset = ex04::aligned_offset_elements(g.nx, 128, 8);
  const std::size_t guard = ex04::checks::guard_length(block);
  const std::array<std::vector<double>, 2> was = ex04::checks::guarded_iterates(g, x0, offset, guard);
  std::array<std::vector<double>, 2> x = was;
  const int nodes = static_cast<int>(g.nodes());
  for (int it = 0; it < iters; ++it) {
    const auto in = static_cast<std::size_t>(it % 2);
    ex04::MixedArgs a{{}, sys.rhs.data(), x[in].data() + guard, x[1 - in].data() + guard, g.nx, nodes,
                      static_cast<int>(offset), omega};
    for (std::size_t d = 0; d < 9; ++d) a.diag[d] = sys.A.diag[d].data();
    emu::launch(dim3(static_cast<unsigned>((nodes + block - 1) / block)), dim3(static_cast<unsigned>(block)),
                /*barriers=*/false, [&] { ex04::jacobi_mixed(a); });
  }
  const std::size_t first = guard + static_cast<std::size_t>(offset), n = static_cast<std::size_t>(g.nodes());
  for (std::size_t b = 0; b < 2; ++b)
    EXPECT_TRUE(gpgpu::jacobi::checks::untouched_outside(std::span<const double>(x[b]), std::span<const double>(was[b]),
                                                         first, n))
        << "iterate " << b << ", " << g.str() << ", blocks of " << block;
  const auto& last = x[static_cast<std::size_t>(iters % 2)];
  return {last.begin() + static_cast<std::ptrdiff_t>(first), last.begin() + static_cast<std::ptrdiff_t>(first + n)};
}

TEST(AlignedOffset, IsTheSmallestAlignedOffsetPastTheGhosts) {
  EXPECT_TRUE(ex04::checks::offset_is_the_smallest_aligned_one_past_the_ghosts());
}

struct Case {
  gpgpu::jacobi::Grid grid;
  int iters;
  int block;
};

class AlignedDoubleEmulated : public ::testing::TestWithParam<Case> {};

TEST_P(AlignedDoubleEmulated, MatchesTheDoubleReference) {
  const Case c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 4);
  const double omega = gpgpu::jacobi::kDefaultOmega;
  EXPECT_TRUE(near_double_rounding(run_emulated(sys, x0, c.iters, c.block, omega),
                                   gpgpu::jacobi::jacobi_reference(sys, x0, c.iters, omega), c.iters));
}

// The kernel must use the ω it is given: iterates at ω = 0.6 against the reference at 0.6.
TEST_P(AlignedDoubleEmulated, UsesTheOmegaItIsGiven) {
  const Case c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 5);
  const double omega = gpgpu::jacobi::checks::kOtherOmega;
  EXPECT_TRUE(near_double_rounding(run_emulated(sys, x0, c.iters, c.block, omega),
                                   gpgpu::jacobi::jacobi_reference(sys, x0, c.iters, omega), c.iters));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, AlignedDoubleEmulated,
                         ::testing::Values(Case{{1, 1}, 3, 64}, Case{{2, 7}, 2, 7}, Case{{17, 103}, 7, 64},
                                           Case{{65, 33}, 4, 100}),
                         [](const auto& info) {
                           std::string name = info.param.grid.str();
                           name += "_it" + std::to_string(info.param.iters) + "_b" + std::to_string(info.param.block);
                           return name;
                         });

}  // namespace
