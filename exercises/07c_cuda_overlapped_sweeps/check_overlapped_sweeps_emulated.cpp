// The CPU check of exercise 07c (label cpu, no GPU needed): the given kernel with your
// sweep_on_chip, unchanged, on the CPU emulation of the CUDA thread model (cuda_emulation.hpp: the
// threads of a block run as fibers that meet at every __syncthreads(), so a missing barrier reads
// values not yet written, deterministically; the blocks of a launch run one after the other, so a
// block that stores more than its tile overwrites a neighbour's finished nodes). Against chapter
// 07b's symmetric kernel (kernels/jacobi/cuda/07b_04_symmetric.cu) on the same emulation bit for bit,
// and against the double-precision reference: one node, one row, one column, grids of several tiles
// in both directions, s from 1 to 6 with 7 and 12 sweeps (a remainder launch for every s that does
// not divide them), blocks smaller and larger than the tile, pitches with and without padding, x_new
// NaN before every launch (ghost rows, padding and guard rows below must stay zero), and ω = 0.6.
#include "jacobi/cuda/tests/cuda_emulation.hpp"

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#define GPGPU_CUDA_EMULATION
#include "jacobi/cuda/07b_04_symmetric.cu"  // the bits every answer must give
#include <overlapped_kernel.cu>             // the given kernel, which includes your sweeps_on_chip.hpp

#include "gpgpu/harness/watchdog.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/pitched_host.hpp"
#include "overlapped_check.hpp"

namespace {

// A kernel that never returns (a loop without its step, say) fails the check after 40 s, naming the
// test, within the CTest timeout of a minute.
[[maybe_unused]] const auto* const kWatchdog = gpgpu::harness::add_watchdog(std::chrono::seconds(40));

using gpgpu::jacobi::Dir;
using gpgpu::jacobi::Grid;
using gpgpu::jacobi::LinearSystem;
using gpgpu::jacobi::testing::HostPitched;
using gpgpu::jacobi::testing::host_pitched;
namespace jc = gpgpu::jacobi::cuda;

const float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr int kGuardRows = 16;  // more than any tile's height

// The system on the pitched layout (pitch: nx rounded up to 4 floats, plus pitch_extra) with the
// symmetric storage, and the two iterates, the output NaN.
class HostSystem {
 public:
  HostSystem(const LinearSystem& sys, std::span<const float> x0, int pitch_extra)
      : g_(sys.grid), pitch_((g_.nx + 3) / 4 * 4 + pitch_extra), x_(iterate(x0, 0.0f)), x_new_(iterate({}, kNaN)) {
    for (Dir d : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE})
      stored_.push_back(host_pitched(sys.A.diag[gpgpu::jacobi::idx(d)], g_, pitch_));
    stored_.push_back(host_pitched(sys.rhs, g_, pitch_));
  }
  [[nodiscard]] ex07c::SymmetricArgs args(float omega) {
    const auto o = [&](std::size_t k) { return stored_[k].origin(); };
    return {o(0), o(1), o(2), o(3), o(4), o(5), x_.origin(), x_new_.origin(), g_.nx, g_.ny, pitch_, omega};
  }
  /// After a launch: the output becomes the input, the next output is NaN again.
  void next() {
    std::swap(x_, x_new_);
    x_new_ = iterate({}, kNaN);
  }
  [[nodiscard]] std::vector<float> unknowns(const std::string& what) const {
    return ex07c::check::unknowns(x_.data, g_, pitch_, what);
  }
  [[nodiscard]] const Grid& grid() const { return g_; }

 private:
  // An iterate with kGuardRows zero rows after its ghost rows, checked like them: a store beyond the
  // grid's last row lands there, not outside the array.
  [[nodiscard]] HostPitched iterate(std::span<const float> values, float fill) const {
    HostPitched p = host_pitched(values, g_, pitch_, fill);
    p.data.resize(p.data.size() + static_cast<std::size_t>(kGuardRows) * pitch_, 0.0f);
    return p;
  }
  Grid g_;
  int pitch_;
  std::vector<HostPitched> stored_;  // c, e, nw, n, ne, f
  HostPitched x_, x_new_;
};

// 07b_04_symmetric.cu, one sweep per launch.
std::vector<float> run_symmetric(const LinearSystem& sys, std::span<const float> x0, int iters, int pitch_extra,
                                 double omega) {
  HostSystem d(sys, x0, pitch_extra);
  const Grid g = d.grid();
  for (int it = 0; it < iters; ++it) {
    const ex07c::SymmetricArgs a = d.args(static_cast<float>(omega));
    emu::launch(dim3(jc::blocks_for((g.nx + 3) / 4, 8), jc::blocks_for(g.ny, 2)), dim3(8), false,
                [&] { jc::jacobi_symmetric(a, 2); });
    d.next();
  }
  return d.unknowns("07b's symmetric kernel");
}

// How a case launches the given kernel: s sweeps per launch, the tile, the block, the pitch's padding.
struct Launch {
  int sweeps;
  ex07c::TemporalTile tile;
  dim3 block;
  int pitch_extra;
};

// `iters` sweeps in launches of l.sweeps, the last one the remainder.
std::vector<float> run_overlapped(const LinearSystem& sys, std::span<const float> x0, int iters, const Launch& l,
                                  double omega) {
  HostSystem d(sys, x0, l.pitch_extra);
  const Grid g = d.grid();
  for (const int s : ex07c::check::launches(iters, l.sweeps)) {
    EXPECT_LE(ex07c::overlapped_shared_bytes(s, l.tile), emu::sequential_shared.size() * sizeof(float4));
    const ex07c::SymmetricArgs a = d.args(static_cast<float>(omega));
    emu::launch(dim3(jc::blocks_for(g.nx, l.tile.x), jc::blocks_for(g.ny, l.tile.y)), l.block, true,
                [&] { ex07c::overlapped_sweeps(a, s, l.tile.x, l.tile.y); });
    d.next();
  }
  return d.unknowns("your sweeps");
}

struct Case {
  Grid grid;
  Launch launch;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.grid.str() << ", s = " << c.launch.sweeps << ", tile " << c.launch.tile.x << "x" << c.launch.tile.y
      << ", block " << c.launch.block.x << "x" << c.launch.block.y << ", pitch +" << c.launch.pitch_extra;
}

class OverlappedSweepsEmulated : public ::testing::TestWithParam<Case> {};

TEST_P(OverlappedSweepsEmulated, GiveTheSymmetricKernelsBits) {
  const Case c = GetParam();
  const LinearSystem sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const std::vector<float> x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 17);
  for (const int iters : {7, 12}) {
    SCOPED_TRACE(std::to_string(iters) + " sweeps");
    const std::vector<float> got = run_overlapped(sys, x0, iters, c.launch, gpgpu::jacobi::kDefaultOmega);
    EXPECT_TRUE(ex07c::check::same_bits(got, run_symmetric(sys, x0, iters, c.launch.pitch_extra,
                                                           gpgpu::jacobi::kDefaultOmega)));
    EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(got, sys, x0, iters));
  }
}

// The sweeps must use the ω they are given: 5 sweeps at ω = 0.6 (launches of 3 and 2) against the
// reference at 0.6.
TEST(OverlappedSweepsEmulatedOmega, UseTheOmegaTheyAreGiven) {
  const Launch l{3, {8, 3}, dim3(3, 2), 4};
  EXPECT_TRUE(gpgpu::jacobi::checks::uses_the_omega_it_is_given(
      [&](const LinearSystem& sys, std::span<const float> x0, int iters, double omega) {
        return run_overlapped(sys, x0, iters, l, omega);
      },
      Grid{37, 23}, 5));
}

// Each s with its own launch: tiles of one float4 and wider, a tile lower than its halo (s = 5), a
// block smaller than the tile in both directions (the threads loop), and the GPU's 32 x 8 block, with
// more threads than the tile has nodes (s = 3).
const Launch kLaunches[] = {
    {1, {4, 4}, dim3(4, 2), 0}, {2, {8, 3}, dim3(3, 2), 8}, {3, {12, 5}, dim3(32, 8), 0},
    {4, {4, 7}, dim3(5, 3), 4}, {5, {8, 2}, dim3(8, 1), 0}, {6, {16, 9}, dim3(7, 4), 8},
};
// Grids of one node, one row, one column, and several tiles in both directions; 20 x 11 at pitch 20
// (no padding: a store past a row's last node lands on the next row's first) is also a width the
// 4-column tiles divide (the last tile's last columns are the grid's).
const Grid kGrids[] = {{1, 1}, {1, 9}, {9, 1}, {2, 7}, {37, 23}, {17, 33}, {20, 11}};

std::vector<Case> cases() {
  std::vector<Case> all;
  for (const Grid& g : kGrids)
    for (const Launch& l : kLaunches) all.push_back({g, l});
  return all;
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, OverlappedSweepsEmulated, ::testing::ValuesIn(cases()),
                         [](const auto& info) {
                           const Case& c = info.param;
                           return c.grid.str() + "_s" + std::to_string(c.launch.sweeps) + "_tile" +
                                  std::to_string(c.launch.tile.x) + "x" + std::to_string(c.launch.tile.y) + "_block" +
                                  std::to_string(c.launch.block.x) + "x" + std::to_string(c.launch.block.y) +
                                  "_pitch" + std::to_string(c.launch.pitch_extra);
                         });

}  // namespace
