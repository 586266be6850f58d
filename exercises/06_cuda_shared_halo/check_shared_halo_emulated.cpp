// The CPU check of exercise 06 (label cpu, no GPU needed): your kernel, unchanged, on the CPU
// emulation of the CUDA thread model, with the threads of a block run as fibers one after another
// (kernels/matrix/cuda/tests/matrix_emulation.hpp): each runs until it reaches __syncthreads() or
// returns, then the next, in the order of threadIdx or its reverse (by block and barrier phase). So a
// missing barrier is never hidden by luck, as it may be on a GPU: the first thread reads the tile
// before the others have loaded their cells, and those cells hold NaN (the tile is poisoned before
// every block). Besides the result against the double-precision reference (at awkward sizes, block
// shapes and pitches, and at an ω other than the default: a kernel that hard-codes 0.8 fails), it
// checks the technique at every barrier:
// - at one of the block's barriers the tile must hold every x value its threads read (cells in the
//   grid exactly, those beyond it finite), so a kernel without shared memory, or with no barrier
//   after the loads, fails;
// - once it does, x itself is NaN until the block ends, so an update that reads x from global memory
//   after the barrier, rather than from the tile, fails;
// - a barrier that some threads of a block reach and others skip (they returned first) is an error;
// - beyond column nx and row ny (outside the memory the arrays have) the tile must hold exactly 0, as
//   the README says, and x's buffer is followed by rows poisoned with a NaN of its own payload, so a
//   load without a bounds guard fails, and one that reads past the buffer's last row (ny + 1) says so;
// - before the block's first barrier each tile cell is written by one thread: the threads run one
//   after another, and as each starts, the cells written so far are swapped for a marker (their
//   values put back at the barrier), so a cell that a second thread loads again is seen. A load in
//   which every row of threads loads the whole tile (threadIdx.y left out) fails: each x value must
//   be loaded once per block. (Two threads' writes to one cell with no barrier between are a race too.)
// It says nothing about speed or coalescing; the GPU check's Measure test does. The include path holds
// the student's folder, the exercise's interface and copies of the headers the kernel and the
// emulation need (CMakeLists.txt), not the chapter's kernels.
#include "matrix/cuda/tests/matrix_emulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

// Dynamic shared memory: `extern __shared__ float tile[]` names ex06's array below (matrix_emulation.hpp
// makes __shared__ static, for the fixed-size tiles of the matrix kernels). __syncthreads() is the
// fibers' barrier followed by this check's look at the tile.
#undef __shared__
#define __shared__
#undef __syncthreads
#define __syncthreads() ::ex06::checks::barrier()

namespace ex06 {
namespace checks {
void barrier();
}  // namespace checks
namespace {
float tile[1 << 14];  // the kernel's tile: blocks run one at a time; 1024 threads need (32+2)² at most
}  // namespace
}  // namespace ex06

#define GPGPU_CUDA_EMULATION
#include <shared_halo.cu>  // the student's file (exercises/ or solutions/: the include path decides)

#include "gpgpu/harness/watchdog.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/guard_zones.hpp"
#include "gpgpu/jacobi/pitched_host.hpp"

namespace ex06::checks {

// A kernel that never returns (a loop without its step, say) fails the check after 40 s, naming the
// test, within the CTest timeout of a minute.
[[maybe_unused]] const auto* const kWatchdog = gpgpu::harness::add_watchdog(std::chrono::seconds(40));

using gpgpu::jacobi::Grid;
using gpgpu::jacobi::testing::HostPitched;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
// What lies past the last row of x's buffer (row ny + 1): a quiet NaN whose payload no arithmetic
// makes, so a tile cell that holds it was loaded from beyond the allocation.
const float kPastTheBuffer = gpgpu::jacobi::checks::guard_nan<float>(0xdead);
[[nodiscard]] bool past_the_buffer(float v) {
  return gpgpu::jacobi::checks::bits_of(v) == gpgpu::jacobi::checks::bits_of(kPastTheBuffer);
}
// What the watch puts in a tile cell already written before the first barrier (see TileWatch).
const float kWritten = gpgpu::jacobi::checks::guard_nan<float>(0xbeef);

// What the check sees of one launch on the iterate x (see the file comment). The blocks run one
// after another; the first thread to run in each (thread (0, 0) or the last, by the emulation's
// order) starts the block's watch in thread_starts().
class TileWatch {
 public:
  // x.data holds the buffer's ny + 2 kPitchedGhostRows rows and, after them, the poisoned rows.
  TileWatch(HostPitched& x, Grid grid, dim3 block)
      : x_(x),
        saved_(x.data),
        buffer_floats_(static_cast<std::size_t>(grid.ny + 2 * gpgpu::jacobi::kPitchedGhostRows) * x.pitch),
        grid_(grid),
        block_(block) {}

  // Every thread, before the kernel. The first of a block starts the block's watch; before the
  // first barrier the threads run one after another, each until it reaches the barrier, so what
  // changed in the tile since the previous thread started, that thread wrote.
  void thread_starts() {
    const uint3 b = emu::block_idx;
    if (!in_block_ || b.x != block_idx_.x || b.y != block_idx_.y || b.z != block_idx_.z) block_starts();
    if (barriers_ == 0) take_writes();
    last_thread_ = static_cast<int>(emu::thread_idx.y * block_.x + emu::thread_idx.x);
  }

  // Every thread of the block has reached a barrier.
  void at_barrier() {
    if (barriers_ == 0) {  // the last thread's writes; then the written values back in the tile
      take_writes();
      for (std::size_t t = 0; t < writer_.size(); ++t)
        if (writer_[t] >= 0) tile[t] = written_value_[t];
    }
    ++barriers_;
    if (failure_.empty()) failure_ = read_past_the_buffer();
    if (tile_held_halo_) return;
    mismatch_ = tile_mismatch();
    if (!mismatch_.empty()) return;
    tile_held_halo_ = true;
    // From now on x is read from the tile, or NaN; the rows past the buffer stay poisoned.
    std::fill(x_.data.begin(), x_.data.begin() + static_cast<std::ptrdiff_t>(buffer_floats_), kNaN);
  }

  // After the launch: the last block's verdict, x as it was. Returns the first failure ("" if none).
  std::string finish() {
    finish_block();
    x_.data = saved_;
    return failure_;
  }

 private:
  void block_starts() {
    finish_block();
    x_.data = saved_;
    std::fill(std::begin(tile), std::end(tile), kNaN);
    block_idx_ = emu::block_idx;
    in_block_ = true;
    const std::size_t cells = static_cast<std::size_t>(block_.x + 2) * (block_.y + 2);
    written_value_.assign(cells, 0.0f);
    writer_.assign(cells, -1);
    last_thread_ = -1;
    tile_held_halo_ = false;
    barriers_ = 0;
    mismatch_.clear();
  }

  // "tile[r * width + c]", the kernel's own spelling of cell t.
  [[nodiscard]] std::string cell(int t) const {
    const int width = static_cast<int>(block_.x) + 2;
    return "tile[" + std::to_string(t / width) + " * " + std::to_string(width) + " + " + std::to_string(t % width) + "]";
  }

  // The cells the last thread wrote: each is kept and marked; one marked before was written twice.
  void take_writes() {
    if (last_thread_ < 0) return;
    const auto thread = [&](int t) {
      return "thread (" + std::to_string(t % static_cast<int>(block_.x)) + ", " + std::to_string(t / static_cast<int>(block_.x)) + ")";
    };
    for (std::size_t t = 0; t < writer_.size(); ++t) {
      using gpgpu::jacobi::checks::bits_of;
      const std::uint32_t bits = bits_of(tile[t]);
      const bool fresh = writer_[t] < 0 ? bits != bits_of(kNaN) : bits != bits_of(kWritten);
      if (!fresh) continue;
      if (writer_[t] >= 0 && failure_.empty())
        failure_ = where() + cell(static_cast<int>(t)) + " was written by " + thread(writer_[t]) + " and again by " +
                   thread(last_thread_) +
                   " before the first barrier: each x value must be loaded once per block, the tile's cells shared "
                   "among all the block's threads (threadIdx.y too), and two writes of one cell with no barrier "
                   "between are a race";
      if (writer_[t] < 0) writer_[t] = last_thread_;
      written_value_[t] = tile[t];
      tile[t] = kWritten;
    }
  }

  [[nodiscard]] std::string where() const {
    return "block (" + std::to_string(block_.x) + " x " + std::to_string(block_.y) + " threads) at (" +
           std::to_string(block_idx_.x) + ", " + std::to_string(block_idx_.y) + "): ";
  }

  // "" unless a tile cell holds the poison that lies past x's buffer: the cell's load read beyond
  // the allocation (no bounds guard).
  [[nodiscard]] std::string read_past_the_buffer() const {
    const int width = static_cast<int>(block_.x) + 2, height = static_cast<int>(block_.y) + 2;
    const int i0 = static_cast<int>(block_idx_.x * block_.x), j0 = static_cast<int>(block_idx_.y * block_.y);
    for (int t = 0; t < width * height; ++t)
      if (past_the_buffer(tile[t]))
        return where() + cell(t) + " (x at column " + std::to_string(i0 - 1 + t % width) + ", row " +
               std::to_string(j0 - 1 + t / width) + ") was loaded from past the end of x's buffer, whose last row is " +
               std::to_string(grid_.ny + 1) + " (ny + 1): a load without a bounds guard (beyond column nx = " +
               std::to_string(grid_.nx) + " and row ny = " + std::to_string(grid_.ny) + " the tile holds 0, unloaded)";
    return {};
  }

  void finish_block() {
    if (in_block_ && failure_.empty()) failure_ = read_past_the_buffer();
    if (!in_block_ || tile_held_halo_ || !failure_.empty()) return;
    const std::string at = where();
    failure_ = barriers_ == 0
                   ? at + "the kernel never calls __syncthreads(): nothing keeps a thread from reading tile cells "
                             "that other threads have not loaded yet"
                   : at + "at none of its " + std::to_string(barriers_) +
                         " barriers did the tile hold the x values its threads read, and 0 beyond column nx and row ny (" +
                         mismatch_ + "): the halo must be loaded into the tile before a barrier, and the update read from it";
  }

  // "" when every tile cell the block's threads read holds its x value (cells beyond the grid only
  // finite: they meet zero coefficients) and every cell beyond column nx or row ny (memory the
  // arrays do not have) holds exactly 0; else the first cell that does not.
  [[nodiscard]] std::string tile_mismatch() const {
    const int width = static_cast<int>(block_.x) + 2;
    const int i0 = static_cast<int>(block_idx_.x * block_.x), j0 = static_cast<int>(block_idx_.y * block_.y);
    const int cols = std::min(static_cast<int>(block_.x), grid_.nx - i0) + 2;
    const int rows = std::min(static_cast<int>(block_.y), grid_.ny - j0) + 2;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const int col = i0 - 1 + c, row = j0 - 1 + r;
        const float got = tile[r * width + c];
        const bool inside = col >= 0 && col < grid_.nx && row >= 0 && row < grid_.ny;
        const float want = inside ? saved_[static_cast<std::size_t>((row + gpgpu::jacobi::kPitchedGhostRows) * x_.pitch + col)] : 0.0f;
        const bool same = got == want || (std::isnan(got) && std::isnan(want));  // x is NaN after a NaN iterate
        if (inside ? !same : !std::isfinite(got))
          return cell(r * width + c) + " is " +
                 std::to_string(got) + ", x at column " + std::to_string(col) + ", row " + std::to_string(row) + " is " +
                 (inside ? std::to_string(want) : std::string("outside the grid"));
      }
    for (int r = 0; r < static_cast<int>(block_.y) + 2; ++r)
      for (int c = 0; c < width; ++c) {
        const int col = i0 - 1 + c, row = j0 - 1 + r;
        const float got = tile[r * width + c];
        if ((col > grid_.nx || row > grid_.ny) && got != 0.0f)
          return cell(r * width + c) + " is " +
                 std::to_string(got) + ", at column " + std::to_string(col) + ", row " + std::to_string(row) +
                 ", beyond column nx = " + std::to_string(grid_.nx) + " or row ny = " + std::to_string(grid_.ny) +
                 ", where the tile must hold 0 (a load without a bounds guard reads memory the arrays do not have)";
      }
    return {};
  }

  HostPitched& x_;
  std::vector<float> saved_;
  std::size_t buffer_floats_;
  Grid grid_;
  dim3 block_;
  uint3 block_idx_{0, 0, 0};
  bool in_block_ = false, tile_held_halo_ = false;
  int barriers_ = 0;
  std::string mismatch_, failure_;
  std::vector<float> written_value_;  // per tile cell, before the first barrier: the value written
  std::vector<int> writer_;           // and the thread that wrote it first (-1: none yet)
  int last_thread_ = -1;              // the thread that started last
};

TileWatch* g_watch = nullptr;
unsigned long long g_phase_seen = 0;  // the fibers' pass in which the watch last looked

// Makes `watch` the one barrier() reports to, for one launch.
class Watching {
 public:
  explicit Watching(TileWatch& watch) { g_watch = &watch; }
  ~Watching() { g_watch = nullptr; }
  Watching(const Watching&) = delete;
  Watching& operator=(const Watching&) = delete;
};

void barrier() {
  emu::fibers::sync();
  // The first thread to come back from a barrier: all of the block's threads have reached it.
  if (g_watch != nullptr && emu::fibers::phase != g_phase_seen) {
    g_phase_seen = emu::fibers::phase;
    g_watch->at_barrier();
  }
}

struct Run {
  std::vector<float> x;  // the nx*ny unknowns after the iterations
  std::string failure;   // the first thing the watch saw wrong ("" if none)
};

// `iters` iterations on the emulation with blocks of bx × by threads; pitch = nx rounded up to 4
// floats, plus pitch_extra (0: no padding when nx is a multiple of 4).
Run run_emulated(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0, int iters, int bx, int by,
                 int pitch_extra, double omega) {
  using gpgpu::jacobi::testing::host_pitched;
  const Grid g = sys.grid;
  const int p = (g.nx + 3) / 4 * 4 + pitch_extra;
  std::vector<HostPitched> diag;
  for (const auto& d : sys.A.diag) diag.push_back(host_pitched(d, g, p));
  const HostPitched f = host_pitched(sys.rhs, g, p);
  HostPitched x = host_pitched(x0, g, p), y = host_pitched({}, g, p, kNaN);
  // Past the buffer's last row, poisoned rows: as many as an unguarded load of the last blocks can
  // reach (up to by + 1 rows past ny, and bx + 1 columns past nx that run into the next row).
  const std::size_t past_rows = static_cast<std::size_t>(by + 3 + (bx + 2) / p);
  for (HostPitched* field : {&x, &y}) field->data.resize(field->data.size() + past_rows * p, kPastTheBuffer);
  const dim3 block(static_cast<unsigned>(bx), static_cast<unsigned>(by));
  const dim3 grid(static_cast<unsigned>((g.nx + bx - 1) / bx), static_cast<unsigned>((g.ny + by - 1) / by));
  Run run;
  for (int it = 0; it < iters; ++it) {
    SharedArgs a{{}, f.origin(), x.origin(), y.origin(), g.nx, g.ny, p, static_cast<float>(omega)};
    for (std::size_t d = 0; d < 9; ++d) a.diag[d] = diag[d].origin();
    TileWatch watch(x, g, block);
    {
      const Watching watching(watch);
      emu::launch_with_barriers(grid, block, [&] {
        watch.thread_starts();
        jacobi_shared_2d(a);
      });
    }
    if (const std::string failure = watch.finish(); run.failure.empty()) run.failure = failure;
    std::swap(x, y);
  }
  run.x = gpgpu::jacobi::testing::host_unknowns(x, g);
  return run;
}

struct Case {
  Grid grid;
  int iters;
  int bx, by;
  int pitch_extra;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.grid.str() << ", " << c.iters << " iterations, blocks of " << c.bx << "x" << c.by << ", pitch +"
      << c.pitch_extra;
}

void expect_solves(const Case& c, double omega, unsigned seed) {
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), seed);
  const Run run = run_emulated(sys, x0, c.iters, c.bx, c.by, c.pitch_extra, omega);
  EXPECT_EQ(run.failure, "");
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference_at(omega, run.x, sys, x0, c.iters))
      << "(x is NaN from the barrier at which the tile holds the halo to the end of the block: NaN here may be "
         "an update that reads x rather than the tile)";
}

class SharedHaloEmulated : public ::testing::TestWithParam<Case> {};

TEST_P(SharedHaloEmulated, LoadsTheTileAndMatchesTheReference) { expect_solves(GetParam(), gpgpu::jacobi::kDefaultOmega, 6); }

INSTANTIATE_TEST_SUITE_P(AwkwardSizesBlocksAndPitches, SharedHaloEmulated,
                         ::testing::Values(Case{{1, 1}, 3, 1, 1, 4}, Case{{2, 7}, 2, 32, 8, 0}, Case{{17, 103}, 3, 16, 16, 4},
                                           Case{{65, 20}, 2, 64, 1, 0}, Case{{30, 29}, 3, 7, 3, 4},
                                           Case{{40, 37}, 2, 32, 32, 0}, Case{{9, 70}, 2, 1, 32, 8}),
                         [](const auto& info) {
                           const Case& c = info.param;
                           return c.grid.str() + "_it" + std::to_string(c.iters) + "_b" + std::to_string(c.bx) + "x" +
                                  std::to_string(c.by) + "_pitch" + std::to_string(c.pitch_extra);
                         });

// The kernel must use the ω it is given: iterates at ω = 0.6 against the reference at 0.6.
TEST(SharedHaloEmulatedOmega, UsesTheOmegaItIsGiven) {
  expect_solves(Case{{17, 33}, 3, 8, 4, 4}, gpgpu::jacobi::checks::kOtherOmega, 7);
}

}  // namespace ex06::checks
