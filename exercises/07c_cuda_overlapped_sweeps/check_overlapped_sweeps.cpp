// The check of exercise 07c on the GPU: the given kernel with your sweep_on_chip against chapter 07b's
// symmetric kernel (kernels/jacobi/cuda/07b_04_symmetric.cu, one sweep per launch, on the same upload)
// bit for bit, and against the CPU double-precision reference: one node, one row, one column, primes
// (37 x 23, 203 x 77) with several tiles in both directions, a grid the tiles divide (64 x 40: the
// last tile's last columns are the grid's), s from 1 to 6 with 7 and 12 sweeps (a remainder launch
// for every s that does not divide them), two tiles, x_new NaN before every launch (ghost rows and
// padding must stay zero), and ω = 0.6. It skips on a machine without a CUDA device.
// check_overlapped_sweeps_emulated.cpp runs the same kernel on the CPU, where a missing barrier or a
// store beyond the tile fails every time (here they race, and may be lucky).
#include <array>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "jacobi/cuda/launchers.hpp"
#include "overlapped_check.hpp"
#include "overlapped_launch.hpp"

namespace {

using gpgpu::cuda::PitchedBuffer;
using gpgpu::jacobi::Dir;
using gpgpu::jacobi::Grid;
using gpgpu::jacobi::LinearSystem;
constexpr auto kGhostRows = static_cast<std::size_t>(gpgpu::jacobi::kPitchedGhostRows);

// Chapter 05's pitched layout on the device with the symmetric storage, and the two iterates.
class DeviceSystem {
 public:
  DeviceSystem(const LinearSystem& sys, std::span<const float> x0) : g_(sys.grid) {
    for (Dir d : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE}) stored_.push_back(field(sys.A.diag[gpgpu::jacobi::idx(d)]));
    stored_.push_back(field(sys.rhs));
    x_[0] = field(x0);
    x_[1] = field(std::vector<float>(x0.size(), 0.0f));
  }
  /// The arguments of a launch from the current iterate into the other, whose unknowns are NaN first
  /// (so that a node no block stores fails).
  [[nodiscard]] ex07c::SymmetricArgs launch_args(float omega) {
    x_[1 - current_].fill_block_bytes(0xFF, nx(), ny(), kGhostRows);
    const auto o = [](PitchedBuffer<float>& b) { return b.row(kGhostRows); };
    return {o(stored_[0]), o(stored_[1]), o(stored_[2]), o(stored_[3]), o(stored_[4]), o(stored_[5]),
            o(x_[current_]), o(x_[1 - current_]), g_.nx, g_.ny, static_cast<int>(x_[0].pitch()), omega};
  }
  void next() { current_ = 1 - current_; }
  [[nodiscard]] std::vector<float> unknowns(const std::string& what) const {
    const PitchedBuffer<float>& x = x_[current_];
    return ex07c::check::unknowns(x.download_rows(x.pitch(), x.rows(), 0), g_, static_cast<int>(x.pitch()), what);
  }

 private:
  [[nodiscard]] std::size_t nx() const { return static_cast<std::size_t>(g_.nx); }
  [[nodiscard]] std::size_t ny() const { return static_cast<std::size_t>(g_.ny); }
  [[nodiscard]] PitchedBuffer<float> field(std::span<const float> values) const {
    return gpgpu::cuda::pitched_with_ghost_rows(values, nx(), ny(), kGhostRows);
  }
  Grid g_;
  std::vector<PitchedBuffer<float>> stored_;  // c, e, nw, n, ne, f
  std::array<PitchedBuffer<float>, 2> x_;
  int current_ = 0;
};

// Chapter 07b's symmetric kernel, one sweep per launch (blocks of 64 threads, a row each).
std::vector<float> run_symmetric(const LinearSystem& sys, std::span<const float> x0, int iters, double omega) {
  DeviceSystem d(sys, x0);
  for (int it = 0; it < iters; ++it) {
    gpgpu::jacobi::cuda::launch_jacobi_symmetric(d.launch_args(static_cast<float>(omega)), 64, 1, nullptr);
    d.next();
  }
  return d.unknowns("07b's symmetric kernel");
}

// `iters` sweeps in launches of `sweeps`, the last one the remainder.
std::vector<float> run_overlapped(const LinearSystem& sys, std::span<const float> x0, int iters, int sweeps,
                                  ex07c::TemporalTile tile, double omega) {
  DeviceSystem d(sys, x0);
  for (const int s : ex07c::check::launches(iters, sweeps)) {
    ex07c::launch_overlapped_sweeps(d.launch_args(static_cast<float>(omega)), s, tile);
    d.next();
  }
  return d.unknowns("your sweeps");
}

using Case = std::tuple<Grid, int, ex07c::TemporalTile>;  // grid, s, tile

class OverlappedSweeps : public ::testing::TestWithParam<Case> {};  // device 0: opened by the test main

TEST_P(OverlappedSweeps, GiveTheSymmetricKernelsBits) {
  const auto& [grid, sweeps, tile] = GetParam();
  const LinearSystem sys = gpgpu::jacobi::assemble_bidomain(grid);
  const std::vector<float> x0 = gpgpu::jacobi::checks::random_guess(grid.nodes(), 19);
  for (const int iters : {7, 12}) {
    SCOPED_TRACE(std::to_string(iters) + " sweeps");
    const std::vector<float> got = run_overlapped(sys, x0, iters, sweeps, tile, gpgpu::jacobi::kDefaultOmega);
    EXPECT_TRUE(ex07c::check::same_bits(got, run_symmetric(sys, x0, iters, gpgpu::jacobi::kDefaultOmega)));
    EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(got, sys, x0, iters));
  }
}

// The sweeps must use the ω they are given: 5 sweeps at ω = 0.6 (launches of 3 and 2) against the
// reference at 0.6.
TEST(OverlappedSweepsOmega, UseTheOmegaTheyAreGiven) {
  EXPECT_TRUE(gpgpu::jacobi::checks::uses_the_omega_it_is_given(
      [](const LinearSystem& sys, std::span<const float> x0, int iters, double omega) {
        return run_overlapped(sys, x0, iters, 3, {16, 8}, omega);
      },
      Grid{37, 23}, 5));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, OverlappedSweeps,
                         ::testing::Combine(::testing::Values(Grid{1, 1}, Grid{1, 37}, Grid{37, 1}, Grid{37, 23},
                                                              Grid{203, 77}, Grid{64, 40}),
                                            ::testing::Range(1, 7),
                                            ::testing::Values(ex07c::TemporalTile{16, 8}, ex07c::TemporalTile{32, 16})),
                         [](const auto& info) {
                           const ex07c::TemporalTile tile = std::get<2>(info.param);
                           return std::get<0>(info.param).str() + "_s" + std::to_string(std::get<1>(info.param)) +
                                  "_tile" + std::to_string(tile.x) + "x" + std::to_string(tile.y);
                         });

}  // namespace
