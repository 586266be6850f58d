// Chapter 07c's kernels, unchanged, on the CPU emulation of the CUDA thread model
// (cuda_emulation.hpp): several sweeps per launch (overlapped tiles, the wavefront), one
// cooperative launch for every sweep (persistent) and one for every full trip of s sweeps
// (overlapped_persistent), against 07b_04_symmetric.cu on the same emulation bit for bit, and
// against the double-precision reference; overlapped_scaled, which multiplies by ω / c instead of
// dividing by c, bit for bit against the same arithmetic swept plainly on the CPU (scaled_sweeps.hpp),
// within the reference's tolerance, and with every input NaN outside the grid. The grid-wide barrier of the two cooperative kernels is
// emulated by running every thread of every block at once, each block with its own shared memory,
// meeting at one std::barrier (emu::launch_cooperative); the other kernels' blocks run one after
// the other, as in test_kernels_emulated.cpp. Sizes: one node, one row or column,
// primes, tiles and strips that do not divide the grid, every s from 1 to 6 (the unrolled kernel
// with four rows per step: 1 to 8) with an iteration count (7) that is a multiple of none but 1,
// blocks smaller than the tile (the threads loop) and pitches with and without padding; the
// written iterate is NaN before every launch, so a node no block writes fails.
#include "cuda_emulation.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/pitched_host.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/spectral.hpp"

#define GPGPU_CUDA_EMULATION
#include "../07b_04_symmetric.cu"
#include "../07c_01_overlapped.cu"
#include "../07c_02_overlapped_columns.cu"
#include "../07c_03_overlapped_unrolled.cu"
#include "../07c_04_wavefront.cu"
#include "../07c_05_persistent.cu"
#include "../07c_06_overlapped_persistent.cu"
#include "../07c_07_overlapped_scaled.cu"
#include "gpgpu/jacobi/checks.hpp"
#include "scaled_sweeps.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

constexpr float kOmega = static_cast<float>(kDefaultOmega);
const float kNaN = std::numeric_limits<float>::quiet_NaN();

using Pitched = gpgpu::jacobi::testing::HostPitched;
using gpgpu::jacobi::testing::host_pitched;

/// How a case launches: the pitch's padding, the tile (or strip and rows), the block, sweeps per launch.
struct Launch {
  int pitch_extra;
  TemporalTile tile;
  dim3 block;
  int sweeps;
};

/// Whether element k of a pitched field lies outside the grid (a ghost row or a row's padding).
bool outside_grid(std::size_t k, int pitch, const Grid& g) {
  const auto row = static_cast<int>(k) / pitch - kPitchedGhostRows, col = static_cast<int>(k) % pitch;
  return row < 0 || row >= g.ny || col >= g.nx;
}

/// The system on the pitched layout with the symmetric storage, and the two iterates.
struct Device {
  Grid g;
  int pitch;
  std::vector<Pitched> coef;  // c, e, nw, n, ne, f
  Pitched x, y;
  float omega = kOmega;
  Device(const LinearSystem& sys, std::span<const float> x0, int pitch_extra)
      : g(sys.grid), pitch((g.nx + 3) / 4 * 4 + pitch_extra), x(host_pitched(x0, g, pitch)),
        y(host_pitched({}, g, pitch, kNaN)) {
    for (Dir dir : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE}) coef.push_back(host_pitched(sys.A.diag[idx(dir)], g, pitch));
    coef.push_back(host_pitched(sys.rhs, g, pitch));
  }
  SymmetricArgs args() {
    const auto o = [&](std::size_t i) { return coef[i].origin(); };
    return {o(0), o(1), o(2), o(3), o(4), o(5), x.origin(), y.origin(), g.nx, g.ny, pitch, omega};
  }
  /// Every input (the coefficients, f, x) NaN in its ghost rows and padding, which no kernel may read.
  void poison_outside_the_grid() {
    for (Pitched* p : {&coef[0], &coef[1], &coef[2], &coef[3], &coef[4], &coef[5], &x})
      for (std::size_t k = 0; k < p->data.size(); ++k)
        if (outside_grid(k, pitch, g)) p->data[k] = kNaN;
  }
  /// After a launch: the output becomes the input; the new output is poisoned again.
  void swap_and_poison() {
    std::swap(x, y);
    y = host_pitched({}, g, pitch, kNaN);
  }
  /// The unknowns; every ghost and padding element of the current iterate must still be zero.
  std::vector<float> unknowns(const std::string& variant) {
    for (std::size_t k = 0; k < x.data.size(); ++k)
      if (outside_grid(k, pitch, g) && x.data[k] != 0.0f)
        ADD_FAILURE() << variant << ": ghost/padding element " << k << " is " << x.data[k];
    return gpgpu::jacobi::testing::host_unknowns(x, g);
  }
};

// 07b_04_symmetric.cu, one sweep per launch: the bits every 07c kernel must reproduce.
std::vector<float> emulate_symmetric(const LinearSystem& sys, std::span<const float> x0, int iters, int pitch_extra) {
  Device d(sys, x0, pitch_extra);
  for (int it = 0; it < iters; ++it) {
    const SymmetricArgs a = d.args();
    emu::launch(dim3(blocks_for((d.g.nx + 3) / 4, 8), blocks_for(d.g.ny, 2)), dim3(8), false,
                [&] { jacobi_symmetric(a, 2); });
    d.swap_and_poison();
  }
  return d.unknowns("symmetric");
}

// `iters` sweeps in launches of l.sweeps (the last one the remainder), as the chapter's host code does.
std::vector<float> emulate_blocked(const std::string& variant, const LinearSystem& sys, std::span<const float> x0,
                                   int iters, const Launch& l) {
  Device d(sys, x0, l.pitch_extra);
  for (int done = 0; done < iters;) {
    const int s = std::min(l.sweeps, iters - done);
    const SymmetricArgs a = d.args();
    const std::size_t bytes =
        variant == "wavefront" ? wavefront_shared_bytes(s, l.tile) : overlapped_shared_bytes(s, l.tile);
    EXPECT_LE(bytes, emu::sequential_shared.size() * sizeof(float4));
    const dim3 grid(blocks_for(d.g.nx, l.tile.x), blocks_for(d.g.ny, l.tile.y));
    if (variant == "overlapped")
      emu::launch(grid, l.block, true, [&] { jacobi_overlapped(a, s, l.tile.x, l.tile.y); });
    else if (variant == "overlapped_columns")  // the case's block: narrower than the tile, the threads loop
      emu::launch(grid, l.block, true, [&] { jacobi_overlapped_columns(a, s, l.tile.x, l.tile.y); });
    else if (variant == "overlapped_columns, the GPU's block")  // a thread per loaded column
      emu::launch(grid, overlapped_columns_block(s, l.tile), true, [&] { jacobi_overlapped_columns(a, s, l.tile.x, l.tile.y); });
    else
      emu::launch(grid, dim3(l.block.x * l.block.y), true, [&] { jacobi_wavefront(a, s, l.tile.x, l.tile.y); });
    d.swap_and_poison();
    done += s;
  }
  return d.unknowns(variant);
}

// 07c_03_overlapped_unrolled.cu (kDiagonal divide) or 07c_07_overlapped_scaled.cu (scaled) at a
// loaded width of kWidth columns (the GPU's are 64, 128, 256; narrower here, so that small grids
// have several tiles), a thread per column, kRows rows per step. The last launch of a run does the
// remainder on a wider tile, as the chapter's host code does, so that the loaded width stays kWidth.
template <int kWidth, int kRows, Diagonal kDiagonal = Diagonal::divide>
void launch_unrolled(Device& d, int sweeps, int tile_y, unsigned block_y) {
  const TemporalTile tile{kWidth - 2 * halo_columns(sweeps), tile_y};
  EXPECT_LE(overlapped_shared_bytes(sweeps, tile), emu::sequential_shared.size() * sizeof(float4));
  const SymmetricArgs a = d.args();
  emu::launch(dim3(blocks_for(d.g.nx, tile.x), blocks_for(d.g.ny, tile.y)), dim3(kWidth, block_y), true, [&] {
    if constexpr (kDiagonal == Diagonal::scaled)
      jacobi_overlapped_scaled<kWidth, kRows>(a, sweeps, tile.y);
    else
      jacobi_overlapped_unrolled<kWidth, kRows>(a, sweeps, tile.y);
  });
  d.swap_and_poison();
}

/// How emulate_unrolled starts: the inputs as the GPU has them, or NaN outside the grid.
enum class Outside { zero, nan };

template <int kWidth, int kRows, Diagonal kDiagonal>
std::vector<float> emulate_unrolled(const LinearSystem& sys, std::span<const float> x0, int iters, int sweeps, int tile_y,
                                    unsigned block_y, int pitch_extra, Outside outside, float omega) {
  Device d(sys, x0, pitch_extra);
  d.omega = omega;
  if (outside == Outside::nan) d.poison_outside_the_grid();
  for (int done = 0; done < iters;) {
    const int s = std::min(sweeps, iters - done);
    launch_unrolled<kWidth, kRows, kDiagonal>(d, s, tile_y, block_y);
    done += s;
  }
  return d.unknowns(kDiagonal == Diagonal::scaled ? "overlapped_scaled" : "overlapped_unrolled");
}

// Loaded widths of 16 columns where the halo is 4 (s <= 4), else 32.
template <int kRows, Diagonal kDiagonal = Diagonal::divide>
std::vector<float> emulate_unrolled(const LinearSystem& sys, std::span<const float> x0, int iters, int sweeps, int tile_y,
                                    unsigned block_y, int pitch_extra, Outside outside = Outside::zero,
                                    float omega = kOmega) {
  return sweeps <= 4
             ? emulate_unrolled<16, kRows, kDiagonal>(sys, x0, iters, sweeps, tile_y, block_y, pitch_extra, outside, omega)
             : emulate_unrolled<32, kRows, kDiagonal>(sys, x0, iters, sweeps, tile_y, block_y, pitch_extra, outside, omega);
}

// One cooperative launch of `blocks` blocks for every sweep; the result is in x[iters % 2].
std::vector<float> emulate_persistent(const LinearSystem& sys, std::span<const float> x0, int iters, int pitch_extra,
                                      unsigned blocks, unsigned threads) {
  Device d(sys, x0, pitch_extra);
  const int rows = (d.g.ny + static_cast<int>(blocks) - 1) / static_cast<int>(blocks);
  const PersistentArgs a{d.args(), {d.x.origin(), d.y.origin()}, iters, rows};
  emu::launch_cooperative(blocks, threads, persistent_shared_bytes(d.g.nx, rows) / sizeof(float),
                          [&] { jacobi_persistent(a); });
  if (iters % 2 == 1) std::swap(d.x, d.y);
  return d.unknowns("persistent");
}

// 07c_06_overlapped_persistent.cu as the chapter's host code runs it: the full trips of `iters` in
// one cooperative launch of `blocks` blocks (fewer or more than the tiles), the remainder by step
// 3's launch at the same loaded width kWidth. The iterate no trip writes last is NaN before the
// remainder's launch.
template <int kWidth, int kRows>
std::vector<float> emulate_trips(const LinearSystem& sys, std::span<const float> x0, int iters, int sweeps, int tile_y,
                                 unsigned block_y, int pitch_extra, unsigned blocks) {
  Device d(sys, x0, pitch_extra);
  const int trips = iters / sweeps;
  if (trips > 0) {
    const TemporalTile tile{kWidth - 2 * halo_columns(sweeps), tile_y};
    const TripArgs a{d.args(), {d.x.origin(), d.y.origin()}, trips};
    emu::launch_cooperative(blocks, dim3(kWidth, block_y), overlapped_shared_bytes(sweeps, tile) / sizeof(float),
                            [&] { jacobi_overlapped_persistent<kWidth, kRows>(a, sweeps, tile_y); });
    if (trips % 2 == 1) std::swap(d.x, d.y);  // the result is in x[trips % 2]
    d.y = host_pitched({}, d.g, d.pitch, kNaN);
  }
  if (iters > trips * sweeps) launch_unrolled<kWidth, kRows>(d, iters - trips * sweeps, tile_y, block_y);
  return d.unknowns("overlapped_persistent");
}

const Grid kGrids[] = {{1, 1}, {1, 9}, {9, 1}, {2, 7}, {5, 9}, {17, 33}, {33, 17}, {13, 70}, {37, 23}};

::testing::AssertionResult same_bits(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (std::size_t k = 0; k < got.size(); ++k)
    if (std::memcmp(&got[k], &want[k], sizeof(float)) != 0)
      return ::testing::AssertionFailure() << "node " << k << ": " << got[k] << " instead of " << want[k];
  return ::testing::AssertionSuccess();
}

TEST(Emulated07c, SeveralSweepsPerLaunchGiveTheOneSweepKernelsBits) {
  const Launch launches[] = {
      {0, {4, 4}, dim3(4, 2), 1},    // pitch == nx where nx is a multiple of 4; tiles of one float4
      {8, {8, 3}, dim3(3, 2), 2},    // padded pitch, a block smaller than the tile in both directions
      {0, {12, 5}, dim3(32, 8), 3},  // the GPU's block: more threads than the tile has nodes
      {4, {4, 7}, dim3(5, 3), 4},
      {0, {8, 2}, dim3(8, 1), 5},    // a tile lower than the halo
      {8, {16, 9}, dim3(7, 4), 6},   // two float4s of halo each side
  };
  for (const Grid& g : kGrids) {
    const auto sys = assemble_bidomain(g);
    const auto x0 = checks::random_guess(g.nodes(), 11);
    for (int iters : {1, 7}) {  // one launch of one sweep; launches of s with a remainder (7 = 2s + 1 at s = 3)
      for (const Launch& l : launches) {
        const std::vector<float> want = emulate_symmetric(sys, x0, iters, l.pitch_extra);
        for (const char* v : {"overlapped", "overlapped_columns", "overlapped_columns, the GPU's block", "wavefront"}) {
          // Blocks of hundreds of emulated threads (each an OS thread: the slowest cases here) only on
          // the two largest grids, and the GPU's block of overlapped_columns only at 7 iterations.
          const bool gpu_block = std::string(v) == "overlapped_columns, the GPU's block";
          if ((gpu_block || l.block.x * l.block.y >= 64) && g.nodes() < 800) continue;
          if (gpu_block && iters != 7) continue;
          SCOPED_TRACE(std::string(v) + " on " + g.str() + ", " + std::to_string(iters) + " iterations, s = " +
                       std::to_string(l.sweeps) + ", tile " + std::to_string(l.tile.x) + "x" + std::to_string(l.tile.y) +
                       ", pitch +" + std::to_string(l.pitch_extra));
          const std::vector<float> got = emulate_blocked(v, sys, x0, iters, l);
          EXPECT_TRUE(same_bits(got, want));
          EXPECT_TRUE(checks::matches_reference(got, sys, x0, iters));
        }
      }
    }
  }
}

// The kernels of 07c_03's tiles, each against its own one-sweep arithmetic: step 3 (kDiagonal
// divide) against 07b_04_symmetric.cu, step 7 (scaled) against scaled_sweeps.hpp, both bit for bit
// and within the reference's tolerance. Heights below the halo, of one pair of rows, more rows than
// the block covers in one pass. Four rows per step at every s: heights that are multiples of four
// and heights that are not (then even the last sweep ends on two rows), heights of a single pair.
template <Diagonal kDiagonal>
void check_unrolled_tiles() {
  struct Case {
    int rows_per_step, sweeps, tile_y;
    unsigned block_y;
    int pitch_extra;
  };
  const Case cases[] = {{2, 1, 2, 1, 0},  {2, 2, 4, 2, 8},  {2, 3, 6, 2, 4},  {2, 4, 2, 3, 0},  {2, 5, 4, 2, 0},
                        {2, 8, 10, 2, 8}, {4, 1, 4, 1, 0},  {4, 2, 2, 2, 8},  {4, 3, 6, 1, 4},  {4, 4, 8, 3, 0},
                        {4, 5, 4, 2, 0},  {4, 6, 10, 2, 8}, {4, 7, 12, 1, 4}, {4, 8, 2, 2, 0},  {4, 8, 16, 1, 4}};
  const char* name = kDiagonal == Diagonal::scaled ? "overlapped_scaled, " : "overlapped_unrolled, ";
  for (const Grid& g : kGrids) {
    const auto sys = assemble_bidomain(g);
    const auto x0 = checks::random_guess(g.nodes(), 13);
    for (const Case& c : cases)
      for (int iters : {1, 7, 2 * c.sweeps + 1}) {  // one sweep; a remainder; two whole launches and one sweep
        if (iters == 7 && c.sweeps == 3) continue;  // 2s + 1 again
        SCOPED_TRACE(name + std::to_string(c.rows_per_step) + " rows per step, on " + g.str() + ", " +
                     std::to_string(iters) + " iterations, s = " + std::to_string(c.sweeps) + ", tile height " +
                     std::to_string(c.tile_y) + ", pitch +" + std::to_string(c.pitch_extra));
        const std::vector<float> got =
            c.rows_per_step == 4
                ? emulate_unrolled<4, kDiagonal>(sys, x0, iters, c.sweeps, c.tile_y, c.block_y, c.pitch_extra)
                : emulate_unrolled<2, kDiagonal>(sys, x0, iters, c.sweeps, c.tile_y, c.block_y, c.pitch_extra);
        if constexpr (kDiagonal == Diagonal::scaled)
          EXPECT_TRUE(same_bits(got, scaled_sweeps(sys, x0, iters, kOmega)));
        else
          EXPECT_TRUE(same_bits(got, emulate_symmetric(sys, x0, iters, c.pitch_extra)));
        EXPECT_TRUE(checks::matches_reference(got, sys, x0, iters));
      }
  }
}

TEST(Emulated07c, TheUnrolledKernelGivesTheOneSweepKernelsBits) { check_unrolled_tiles<Diagonal::divide>(); }

TEST(Emulated07c, TheScaledKernelGivesTheScaledSweepsBits) { check_unrolled_tiles<Diagonal::scaled>(); }

// The two arithmetics differ (in the last bits of some nodes), so that the bitwise checks above
// tell the kernels apart, and both stay within the reference's tolerance.
TEST(Emulated07c, MultiplyingByOmegaOverCIsNotDividingByC) {
  const auto sys = assemble_bidomain({37, 23});
  const auto x0 = checks::random_guess(sys.grid.nodes(), 15);
  const std::vector<float> scaled = scaled_sweeps(sys, x0, 7, kOmega), divided = emulate_symmetric(sys, x0, 7, 0);
  EXPECT_FALSE(same_bits(scaled, divided));
  EXPECT_TRUE(checks::matches_reference(scaled, sys, x0, 7));
  EXPECT_TRUE(checks::matches_reference(divided, sys, x0, 7));
}

// Step 7 at another ω than the chapters' 0.8: ω / c is formed from the launch's ω, which a load
// that hard-coded 0.8 would miss (the reference at that ω, and the CPU loop's bits).
TEST(Emulated07c, TheScaledKernelTakesItsOmegaFromTheLaunch) {
  const auto omega = static_cast<float>(checks::kOtherOmega);
  for (const Grid& g : kGrids) {
    const auto sys = assemble_bidomain(g);
    const auto x0 = checks::random_guess(g.nodes(), 13);
    for (int iters : {1, 9}) {
      SCOPED_TRACE("overlapped_scaled at the other omega, on " + g.str() + ", " + std::to_string(iters) + " iterations");
      const std::vector<float> got =
          emulate_unrolled<4, Diagonal::scaled>(sys, x0, iters, 4, 8, 1, 4, Outside::zero, omega);
      EXPECT_TRUE(same_bits(got, scaled_sweeps(sys, x0, iters, omega)));
      EXPECT_TRUE(checks::matches_reference_at(checks::kOtherOmega, got, sys, x0, iters));
    }
  }
}

// Step 7 with every input (coefficients, f, x) NaN in the ghost rows and the padding: ω / c is
// formed only from what the load puts on chip, zero outside the grid, never from memory there, and
// no NaN or inf reaches a stored value (the written iterate is NaN before each launch, its ghost
// rows and padding checked to be zero after). Padded pitches, tiles reaching past every edge, any
// s, iteration counts that are not multiples of it.
TEST(Emulated07c, TheScaledKernelLetsNothingInFromOutsideTheGrid) {
  struct Case {
    int rows_per_step, sweeps, tile_y;
    unsigned block_y;
    int pitch_extra;
  };
  const Case cases[] = {{2, 1, 2, 1, 8}, {4, 3, 6, 1, 4}, {2, 5, 4, 2, 8}, {4, 8, 16, 1, 8}};
  for (const Grid& g : kGrids) {
    const auto sys = assemble_bidomain(g);
    const auto x0 = checks::random_guess(g.nodes(), 16);
    for (const Case& c : cases)
      for (int iters : {1, 7}) {
        SCOPED_TRACE("overlapped_scaled, inputs NaN outside the grid, " + std::to_string(c.rows_per_step) +
                     " rows per step, on " + g.str() + ", " + std::to_string(iters) + " iterations, s = " +
                     std::to_string(c.sweeps) + ", pitch +" + std::to_string(c.pitch_extra));
        const auto run = [&](auto rows) {
          return emulate_unrolled<decltype(rows)::value, Diagonal::scaled>(sys, x0, iters, c.sweeps, c.tile_y, c.block_y,
                                                                           c.pitch_extra, Outside::nan);
        };
        const std::vector<float> got = c.rows_per_step == 4 ? run(Rows<4>{}) : run(Rows<2>{});
        EXPECT_TRUE(same_bits(got, scaled_sweeps(sys, x0, iters, kOmega)));
      }
  }
}

TEST(Emulated07c, ThePersistentKernelGivesTheOneSweepKernelsBits) {
  struct Coop {
    int pitch_extra;
    unsigned blocks, threads;
  };
  // More blocks than rows (idle blocks still meet at the barrier), blocks of one row, odd counts.
  const Coop coops[] = {{0, 1, 8}, {8, 3, 5}, {4, 4, 16}, {0, 7, 3}};
  for (const Grid& g : kGrids) {
    const auto sys = assemble_bidomain(g);
    const auto x0 = checks::random_guess(g.nodes(), 12);
    for (int iters : {1, 2, 7})
      for (const Coop& c : coops) {
        SCOPED_TRACE("persistent on " + g.str() + ", " + std::to_string(iters) + " iterations, " +
                     std::to_string(c.blocks) + " blocks of " + std::to_string(c.threads) + ", pitch +" +
                     std::to_string(c.pitch_extra));
        const std::vector<float> got = emulate_persistent(sys, x0, iters, c.pitch_extra, c.blocks, c.threads);
        EXPECT_TRUE(same_bits(got, emulate_symmetric(sys, x0, iters, c.pitch_extra)));
        EXPECT_TRUE(checks::matches_reference(got, sys, x0, iters));
      }
  }
}

TEST(Emulated07c, TheTripsInOneLaunchGiveTheOneSweepKernelsBits) {
  struct Case {
    int rows_per_step, sweeps, tile_y;
    unsigned block_y;
    int pitch_extra;
    unsigned blocks;
  };
  // One block taking every tile of a trip; two and three blocks taking several each on the larger
  // grids and idle on the smaller ones (still meeting at the barrier); heights below the halo and
  // not multiples of four rows per step; loaded widths of 16 (s <= 4) and 32 columns.
  const Case cases[] = {{2, 1, 2, 1, 0, 1}, {4, 2, 6, 1, 8, 3}, {2, 3, 4, 2, 4, 2},
                        {4, 4, 10, 1, 0, 3}, {2, 5, 2, 1, 8, 2}, {4, 8, 8, 1, 4, 3}};
  for (const Grid& g : kGrids) {
    const auto sys = assemble_bidomain(g);
    const auto x0 = checks::random_guess(g.nodes(), 14);
    for (const Case& c : cases)
      for (int iters : {1, c.sweeps, 2 * c.sweeps + 1, 3 * c.sweeps}) {  // the remainder alone; 1, 2 (and 1 sweep), 3 trips
        if (iters == 1 && c.sweeps == 1) continue;
        SCOPED_TRACE("overlapped_persistent, " + std::to_string(c.rows_per_step) + " rows per step, on " + g.str() +
                     ", " + std::to_string(iters) + " iterations, s = " + std::to_string(c.sweeps) + ", tile height " +
                     std::to_string(c.tile_y) + ", " + std::to_string(c.blocks) + " blocks, pitch +" +
                     std::to_string(c.pitch_extra));
        const auto run = [&]<int kWidth>() {
          return c.rows_per_step == 4
                     ? emulate_trips<kWidth, 4>(sys, x0, iters, c.sweeps, c.tile_y, c.block_y, c.pitch_extra, c.blocks)
                     : emulate_trips<kWidth, 2>(sys, x0, iters, c.sweeps, c.tile_y, c.block_y, c.pitch_extra, c.blocks);
        };
        const std::vector<float> got = c.sweeps <= 4 ? run.template operator()<16>() : run.template operator()<32>();
        EXPECT_TRUE(same_bits(got, emulate_symmetric(sys, x0, iters, c.pitch_extra)));
        EXPECT_TRUE(checks::matches_reference(got, sys, x0, iters));
      }
  }
}

TEST(Emulated07c, TheTripGridKeepsTheFewestRoundsOnWholeSMs) {
  // Fewer tiles than resident blocks: a block per tile (one for an empty grid).
  EXPECT_EQ(overlapped_persistent_blocks(1, 4, 132), 1);
  EXPECT_EQ(overlapped_persistent_blocks(0, 4, 132), 1);
  EXPECT_EQ(overlapped_persistent_blocks(528, 4, 132), 528);
  // 2048² in 56 x 16 tiles: every resident block, 9 rounds; 700 tiles take two rounds in 3 blocks per SM.
  EXPECT_EQ(overlapped_persistent_blocks(4736, 4, 132), 528);
  EXPECT_EQ(overlapped_persistent_blocks(700, 4, 132), 396);
  for (long long tiles = 1; tiles < 3000; tiles += 7)
    for (const int per_sm : {1, 2, 3, 4, 8})
      for (const int sms : {1, 5, 132}) {
        const long long resident = static_cast<long long>(per_sm) * sms;
        const int blocks = overlapped_persistent_blocks(tiles, per_sm, sms);
        SCOPED_TRACE(std::to_string(tiles) + " tiles, " + std::to_string(per_sm) + " per SM, " + std::to_string(sms) + " SMs");
        EXPECT_LE(blocks, std::min(resident, tiles));  // resident (a cooperative launch), never idle by count
        // As few tiles per block as the resident grid gives, on whole SMs when the tiles take rounds.
        EXPECT_EQ((tiles + blocks - 1) / blocks, (tiles + std::min(resident, tiles) - 1) / std::min(resident, tiles));
        if (tiles > resident) {
          EXPECT_EQ(blocks % sms, 0);
        }
      }
}

TEST(Emulated07c, SharedMemoryGrowsWithTheHaloAsTheModelSays) {
  // 8 planes of (tile.x + 2*4*ceil(s/4)) x (tile.y + 2s) floats: the traffic model of 07c_01's header.
  EXPECT_EQ(overlapped_shared_bytes(1, {64, 32}), 8u * 72 * 34 * 4);
  EXPECT_EQ(overlapped_shared_bytes(4, {64, 32}), 8u * 72 * 40 * 4);
  EXPECT_EQ(overlapped_shared_bytes(5, {64, 32}), 8u * 80 * 42 * 4);
  // The wavefront: 7 planes of s+2 rows and 3 rows for each of levels 1 .. s-1, whatever the height.
  EXPECT_EQ(wavefront_shared_bytes(1, {128, 64}), 7u * 3 * 136 * 4);
  EXPECT_EQ(wavefront_shared_bytes(4, {128, 999}), (7u * 6 + 9) * 136 * 4);
  // The persistent kernel: 6 planes of rows+1 rows of nx rounded up to 4, plus 8 zero columns.
  EXPECT_EQ(persistent_shared_bytes(1024, 8), 6u * 9 * 1032 * 4);
}

}  // namespace
}  // namespace gpgpu::jacobi::cuda
