// The CPU check of exercise 03 (label cpu, no GPU needed): your kernel, unchanged, on the CPU
// emulation of the CUDA thread model (kernels/jacobi/cuda/tests/cuda_emulation.hpp), with the same
// NaN guard zones around both iterates as the GPU check (a NaN payload of each iterate's own), against the double-precision reference at
// awkward sizes, and once at an ω other than the default (a kernel that hard-codes 0.8 fails). It
// says nothing about speed; the GPU check's Measure test does. The include path holds the student's
// folder, the exercise's interface and copies of the headers the kernel and the emulation need
// (CMakeLists.txt), not the chapter's kernels.
#include "jacobi/cuda/tests/cuda_emulation.hpp"

#include <array>
#include <vector>

#include <gtest/gtest.h>

#define GPGPU_CUDA_EMULATION
#include <unpadded_borders.cu>  // the student's file (exercises/ or solutions/: the include path decides)

#include "gpgpu/harness/watchdog.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "guard_zones.hpp"

namespace {

// A kernel that never returns (a loop without its step, say) fails the check after 40 s, naming the
// test, within the CTest timeout of a minute.
[[maybe_unused]] const auto* const kWatchdog = gpgpu::harness::add_watchdog(std::chrono::seconds(40));

using gpgpu::jacobi::checks::JacobiCase;

// `iters` iterations of the kernel on the emulation; returns the final iterate, guards included.
std::vector<float> run_emulated(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0, int iters, int block,
                                std::size_t guard, double omega = gpgpu::jacobi::kDefaultOmega) {
  const auto n = static_cast<std::size_t>(sys.grid.nodes());
  std::array<std::vector<float>, 2> x{std::vector<float>(guard + n + guard, gpgpu::jacobi::checks::iterate_guard_nan<float>(0)),
                                      std::vector<float>(guard + n + guard, gpgpu::jacobi::checks::iterate_guard_nan<float>(1))};
  std::copy(x0.begin(), x0.end(), x[0].begin() + static_cast<std::ptrdiff_t>(guard));
  const auto& d = sys.A.diag;
  for (int it = 0; it < iters; ++it) {
    const auto in = static_cast<std::size_t>(it % 2);
    const ex03::UnpaddedArgs a{{d[0].data(), d[1].data(), d[2].data(), d[3].data(), d[4].data(), d[5].data(), d[6].data(),
                                d[7].data(), d[8].data()},
                               sys.rhs.data(), x[in].data() + guard, x[1 - in].data() + guard, sys.grid.nx, sys.grid.ny,
                               static_cast<float>(omega)};
    const auto blocks = static_cast<unsigned>((n + static_cast<std::size_t>(block) - 1) / static_cast<std::size_t>(block));
    emu::launch(dim3(blocks), dim3(static_cast<unsigned>(block)), /*barriers=*/false, [&] { ex03::jacobi_unpadded(a); });
  }
  const auto last = static_cast<std::size_t>(iters % 2);
  EXPECT_TRUE(ex03::checks::guards_untouched(x[1 - last], guard, n, 1 - last)) << "the other iterate";
  EXPECT_TRUE(ex03::checks::guards_untouched(x[last], guard, n, last)) << "the final iterate";
  return x[last];
}

class UnpaddedBordersEmulated : public ::testing::TestWithParam<JacobiCase> {};

TEST_P(UnpaddedBordersEmulated, MatchesTheReferenceAndStaysInsideTheGrid) {
  const JacobiCase c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 3);
  const std::size_t guard = ex03::checks::guard_length(c.grid), n = static_cast<std::size_t>(c.grid.nodes());
  const std::vector<float> all = run_emulated(sys, x0, c.iters, c.block, guard);
  const auto first = all.begin() + static_cast<std::ptrdiff_t>(guard);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(std::vector<float>(first, first + static_cast<std::ptrdiff_t>(n)),
                                                      sys, x0, c.iters));
}

// The kernel must use the ω it is given: iterates at ω = 0.6 against the reference at 0.6.
TEST(UnpaddedBordersEmulatedOmega, UsesTheOmegaItIsGiven) {
  EXPECT_TRUE(gpgpu::jacobi::checks::uses_the_omega_it_is_given(
      [](const auto& sys, std::span<const float> x0, int iters, double omega) {
        const std::size_t guard = ex03::checks::guard_length(sys.grid);
        const std::vector<float> all = run_emulated(sys, x0, iters, 64, guard, omega);
        const auto first = all.begin() + static_cast<std::ptrdiff_t>(guard);
        return std::vector<float>(first, first + static_cast<std::ptrdiff_t>(sys.grid.nodes()));
      }));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, UnpaddedBordersEmulated,
                         ::testing::Values(JacobiCase{{1, 1}, 3, 64}, JacobiCase{{1, 9}, 2, 64}, JacobiCase{{9, 1}, 2, 64},
                                           JacobiCase{{2, 7}, 2, 64}, JacobiCase{{17, 103}, 7, 100},
                                           JacobiCase{{65, 33}, 4, 256}),
                         gpgpu::jacobi::checks::case_name);

}  // namespace
