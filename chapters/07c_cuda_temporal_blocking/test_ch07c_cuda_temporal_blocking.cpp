// Chapter 07c on a GPU (label cuda; skipped without one): every variant (overlapped_unrolled and
// overlapped_persistent with 2 and with 4 rows per step) through its host code against 07b_04_symmetric.cu bit for bit (the
// update is one shared function, the order of its operations the same) and against the CPU
// double-precision reference, at one node, one row, one column, primes, sizes no tile divides and a
// grid beyond the L2; every s from 1 to 8 (to 16 where the tile allows) with iteration counts that
// are not multiples of s; the written iterate is NaN before every run (PitchedSolver::reset), so a
// node no block writes fails. Usage errors: a tile and s whose shared memory no block may have, rows
// per step the unrolled kernel is not built for; the persistent kernel on a grid it cannot hold.
// overlapped_persistent also on its own: iteration counts that are whole trips and that are not,
// grids of one tile and of more tiles than the GPU holds blocks. overlapped_scaled (with 2 and 4 rows
// per step), which multiplies by ω / c instead of dividing by c, is not symmetric's bits: in the same
// cases it is checked against the reference's tolerance and bit for bit against the same
// arithmetic swept plainly on the CPU (kernels/jacobi/cuda/tests/scaled_sweeps.hpp).
#include <cuda_runtime.h>  // __host__ __device__ for scaled_sweeps.hpp

#include <cstring>
#include <deque>
#include <map>
#include <ostream>
#include <utility>
#include <string>
#include <vector>

#include "gpgpu/jacobi/cuda/variant_checks.hpp"
#include "cuda_variants.hpp"
#include "gpgpu/jacobi/cuda/row_walking_solver.hpp"
#include "jacobi/cuda/launchers.hpp"  // blocks_for: the tile count of a grid
#include "jacobi/cuda/tests/scaled_sweeps.hpp"

// The parameterised suites of variant_checks.hpp take LaunchOptions, which these variants do not
// (their launch is the tile and s): the tests below cover the reference, the bits and the contract.
namespace gpgpu::jacobi::cuda::checks {
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CudaVariantCases);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CudaVariant);
}  // namespace gpgpu::jacobi::cuda::checks

namespace {

namespace jc = gpgpu::jacobi::cuda;
namespace checks = gpgpu::jacobi::checks;
using gpgpu::jacobi::Grid;

// `iters` iterations of a variant from x0; the solution.
std::vector<float> run(const gpgpu::jacobi::Variant& v, const gpgpu::jacobi::LinearSystem& sys, const std::vector<float>& x0,
                       int iters) {
  const auto solver = v.make(sys, jc::checks::session());
  solver->reset(x0);
  solver->iterate(iters, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
  return solver->solution();
}

::testing::AssertionResult same_bits(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (std::size_t k = 0; k < got.size(); ++k)
    if (std::memcmp(&got[k], &want[k], sizeof(float)) != 0)
      return ::testing::AssertionFailure() << "node " << k << ": " << got[k] << " instead of " << want[k];
  return ::testing::AssertionSuccess();
}

using Make = gpgpu::jacobi::Variant (*)(const ch07c::TemporalOptions&);

// Every variant that depends on s, overlapped_unrolled, overlapped_persistent and overlapped_scaled
// with 2 and with 4 rows per step (0: the kernel has no such choice).
const std::pair<Make, int> kMakers[] = {{ch07c::overlapped_variant, 0},
                                        {ch07c::overlapped_columns_variant, 0},
                                        {ch07c::overlapped_unrolled_variant, 2},
                                        {ch07c::overlapped_unrolled_variant, 4},
                                        {ch07c::wavefront_variant, 0},
                                        {ch07c::overlapped_persistent_variant, 2},
                                        {ch07c::overlapped_persistent_variant, 4},
                                        {ch07c::overlapped_scaled_variant, 2},
                                        {ch07c::overlapped_scaled_variant, 4}};

// Whether a variant runs 07c_03_overlapped_unrolled.cu's tiles (built for three loaded widths).
bool unrolled_tiles(Make make) {
  return make == ch07c::overlapped_unrolled_variant || make == ch07c::overlapped_persistent_variant ||
         make == ch07c::overlapped_scaled_variant;
}

// The bits a variant must give after `iters` iterations: symmetric's (`symmetric`, computed once
// per count), or for overlapped_scaled the scaled arithmetic's, swept on the CPU.
const std::vector<float>& bits_for(Make make, const gpgpu::jacobi::LinearSystem& sys, const std::vector<float>& x0, int iters,
                                   const std::vector<float>& symmetric, std::map<int, std::vector<float>>& scaled) {
  if (make != ch07c::overlapped_scaled_variant) return symmetric;
  if (!scaled.contains(iters))
    scaled[iters] = jc::scaled_sweeps(sys, x0, iters, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
  return scaled[iters];
}

struct Case {
  Grid grid;
  int iters;
  int max_sweeps;
};

// Every variant at sweeps per trip s against the symmetric kernel (overlapped_scaled: against the
// scaled arithmetic on the CPU) and the reference; at s = 1 also the persistent kernel, which has no s.
void check_case_at(const Case& c, int s) {
  jc::LaunchOptions launch;
  launch.tune = false;
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = checks::random_guess(c.grid.nodes(), 17);
  const std::vector<float> want = run(jc::symmetric_variant(launch), sys, x0, c.iters);
  EXPECT_TRUE(checks::matches_reference(want, sys, x0, c.iters)) << c.grid.str();
  std::map<int, std::vector<float>> scaled;
  for (const auto& [make, rows] : kMakers) {
    ch07c::TemporalOptions options;
    options.sweeps_per_trip = s;
    options.launch = &launch;
    options.rows_per_step = rows;
    if (s > 8) options.tile_x = options.tile_y = 32;  // the default tiles' halo would not fit
    if (s > 8 && unrolled_tiles(make)) options.tile_x = 64 - 2 * jc::halo_columns(s);
    const gpgpu::jacobi::Variant v = make(options);
    if (v.limitation && v.limitation(c.grid, jc::checks::session())) continue;  // a GPU without cooperative launch
    SCOPED_TRACE(v.info.name + " (rows per step " + std::to_string(rows) + ") on " + c.grid.str() + ", s = " +
                 std::to_string(s) + ", " + std::to_string(c.iters) + " iterations");
    const std::vector<float> got = run(v, sys, x0, c.iters);
    EXPECT_TRUE(same_bits(got, bits_for(make, sys, x0, c.iters, want, scaled)));
    EXPECT_TRUE(checks::matches_reference(got, sys, x0, c.iters));
  }
  if (s == 1 && !ch07c::persistent_variant().limitation(c.grid, jc::checks::session())) {
    SCOPED_TRACE("persistent on " + c.grid.str());
    for (int iters : {1, 2, c.iters}) {
      const std::vector<float> got = run(ch07c::persistent_variant(), sys, x0, iters);
      EXPECT_TRUE(same_bits(got, run(jc::symmetric_variant(launch), sys, x0, iters)));
      EXPECT_TRUE(checks::matches_reference(got, sys, x0, iters));
    }
  }
}

// One test per grid and s (64 of them), not one for all: CTest's shards and the sanitizers' processes
// share them out (racecheck and initcheck of them all in one process were the device check's slowest runs).
struct SweepsCase {
  Case c;
  int s;
};

void PrintTo(const SweepsCase& p, std::ostream* os) {
  *os << p.c.grid.str() << ", " << p.c.iters << " iterations, s = " << p.s;
}

std::vector<SweepsCase> every_sweeps_per_trip() {
  std::vector<SweepsCase> cases;
  for (const Case& c : {Case{{1, 1}, 3, 8}, Case{{1, 97}, 7, 8}, Case{{97, 1}, 7, 8}, Case{{97, 61}, 7, 16},
                        Case{{127, 251}, 13, 16}, Case{{203, 77}, 10, 8}})
    for (int s = 1; s <= c.max_sweeps; ++s) cases.push_back({c, s});
  return cases;
}

class EverySweepsPerTrip : public ::testing::TestWithParam<SweepsCase> {};

TEST_P(EverySweepsPerTrip, GivesTheOneSweepKernelsBits) { check_case_at(GetParam().c, GetParam().s); }

INSTANTIATE_TEST_SUITE_P(Ch07c, EverySweepsPerTrip, ::testing::ValuesIn(every_sweeps_per_trip()),
                         [](const ::testing::TestParamInfo<SweepsCase>& info) {
                           return "grid_" + info.param.c.grid.str() + "_s" + std::to_string(info.param.s);
                         });

TEST(Ch07c, BeyondTheL2) {
  const Case beyond{{4099, 4097}, 7, 4};
  for (int s = 1; s <= beyond.max_sweeps; ++s) check_case_at(beyond, s);
}

// The grid, guess and bits after 9 iterations that the other tiles and the tuner must give.
struct NineIterationsOn203x77 {
  const gpgpu::jacobi::LinearSystem sys = gpgpu::jacobi::assemble_bidomain({203, 77});
  const std::vector<float> x0 = checks::random_guess(sys.grid.nodes(), 19);
  jc::LaunchOptions launch;
  const std::vector<float> want = run(jc::symmetric_variant(launch), sys, x0, 9);
  std::map<int, std::vector<float>> scaled;
  const std::vector<float>& bits(Make make) { return bits_for(make, sys, x0, 9, want, scaled); }
};

// Other tiles than the defaults: each kernel built for them gives the same bits.
TEST(Ch07c, OtherTilesKeepTheBits) {
  NineIterationsOn203x77 on;
  for (const auto& [make, rows] : kMakers) {
    // overlapped_unrolled: the loaded widths it is built for (64, 128, 256 at a halo of 4), even
    // heights, multiples of its rows per step or not.
    for (const jc::TemporalTile t : unrolled_tiles(make) ? std::vector<jc::TemporalTile>{{56, 2}, {120, 6}, {248, 4}}
                                                         : std::vector<jc::TemporalTile>{{4, 1}, {12, 5}, {256, 3}}) {
      ch07c::TemporalOptions options;
      options.sweeps_per_trip = 3;
      options.tile_x = t.x;
      options.tile_y = t.y;
      options.rows_per_step = rows;
      EXPECT_TRUE(same_bits(run(make(options), on.sys, on.x0, 9), on.bits(make))) << t.x << "x" << t.y << ", rows per step " << rows;
    }
  }
}

// The tuner (tile 0 x 0: tune() times the candidates, and both rows per step unless named) picks
// a tile that keeps the bits. A test of its own: its many timed launches are the slowest part of
// the chapter's tests under compute-sanitizer, which runs it under memcheck only (ch07c.sh).
TEST(Ch07c, TuningKeepsTheBits) {
  NineIterationsOn203x77 on;
  for (const auto& [make, rows] : kMakers) {
    ch07c::TemporalOptions tuned;
    tuned.rows_per_step = rows;
    const auto solver = make(tuned).make(on.sys, jc::checks::session());
    const std::string tuning = solver->tune(3, 0.8f);
    EXPECT_NE(tuning, "");
    if (unrolled_tiles(make)) {
      EXPECT_NE(tuning.find(std::to_string(rows) + " rows per step"), std::string::npos) << tuning;
    }
    solver->reset(on.x0);
    solver->iterate(9, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
    EXPECT_TRUE(same_bits(solver->solution(), on.bits(make)));
  }
  {  // the tuner choosing the rows per step as well as the tile
    const ch07c::TemporalOptions both;
    const auto solver = ch07c::overlapped_unrolled_variant(both).make(on.sys, jc::checks::session());
    EXPECT_NE(solver->tune(3, 0.8f).find("tiles and rows per step"), std::string::npos);
    solver->reset(on.x0);
    solver->iterate(9, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
    EXPECT_TRUE(same_bits(solver->solution(), on.want));
  }
}

// The contract every Jacobi solver keeps: upload and download agree on the layout, the current
// iterate is tracked, the events time something.
TEST(Ch07c, KeepsTheSolverContract) {
  ch07c::TemporalOptions options;
  options.sweeps_per_trip = 3;
  for (const Grid g : {Grid{37, 19}, Grid{45, 30}}) {
    const auto sys = gpgpu::jacobi::assemble_bidomain(g);
    for (const gpgpu::jacobi::Variant& v :
         {ch07c::overlapped_variant(options), ch07c::overlapped_columns_variant(options),
          ch07c::overlapped_unrolled_variant(options), ch07c::wavefront_variant(options),
          ch07c::persistent_variant(), ch07c::overlapped_persistent_variant(options),
          ch07c::overlapped_scaled_variant(options)})
      EXPECT_TRUE(checks::keeps_the_solver_contract(*v.make(sys, jc::checks::session()), sys)) << v.info.name << " " << g.str();
  }
}

// A --sweeps-per-trip list: every kernel that depends on s once per s, named by it; the others once;
// a run that overlapped_unrolled cannot make at its s (the tile given is not one it is built for)
// is skipped with its reason, the others run.
TEST(Ch07c, RunsEveryKernelOncePerSweepsOfTheList) {
  jc::LaunchOptions launch;
  ch07c::TemporalOptions base;
  base.launch = &launch;
  base.sweeps_list = {4, 8};
  base.tile_x = 56;  // 64 columns loaded at s = 4 (a halo of 4), 72 at s = 8 (a halo of 8)
  base.tile_y = 16;
  const gpgpu::jacobi::Variant symmetric = jc::symmetric_variant(launch), overlapped = ch07c::overlapped_variant(base),
                               unrolled = ch07c::overlapped_unrolled_variant(base), persistent = ch07c::persistent_variant(),
                               trips = ch07c::overlapped_persistent_variant(base),
                               scaled = ch07c::overlapped_scaled_variant(base);
  std::deque<ch07c::TemporalOptions> per_sweeps;
  std::vector<std::string> skipped;
  const std::vector<gpgpu::jacobi::Variant> runs = ch07c::runs_per_sweeps(
      {&symmetric, &overlapped, &unrolled, &persistent, &trips, &scaled}, base, per_sweeps,
      [&](const std::string& name, const std::string& why) { skipped.push_back(name + ": " + why); });
  std::vector<std::string> names;
  for (const auto& v : runs) names.push_back(v.info.name);
  EXPECT_EQ(names, (std::vector<std::string>{"symmetric", "overlapped_s4", "overlapped_s8", "overlapped_unrolled_s4", "persistent",
                                             "overlapped_persistent_s4", "overlapped_scaled_s4"}));
  ASSERT_EQ(skipped.size(), 3u);
  EXPECT_NE(skipped[0].find("overlapped_unrolled_s8: --tile-x 56 at s = 8 loads 72 columns"), std::string::npos) << skipped[0];
  EXPECT_NE(skipped[1].find("overlapped_persistent_s8: --tile-x 56 at s = 8 loads 72 columns"), std::string::npos) << skipped[1];
  EXPECT_NE(skipped[2].find("overlapped_scaled_s8: --tile-x 56 at s = 8 loads 72 columns"), std::string::npos) << skipped[2];
  // One s: the names stay the variants' own.
  base.sweeps_list = {3};
  per_sweeps.clear();
  const auto one = ch07c::runs_per_sweeps({&overlapped}, base, per_sweeps, [](const std::string&, const std::string&) {});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].info.name, "overlapped");
  EXPECT_EQ(per_sweeps.front().sweeps_per_trip, 3);
}

TEST(Ch07c, RefusesWhatCannotBeOnChip) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({64, 64});
  ch07c::TemporalOptions huge;
  huge.sweeps_per_trip = ch07c::kMaxSweepsPerTrip;
  huge.tile_x = huge.tile_y = 1024;
  EXPECT_THROW((void)ch07c::overlapped_variant(huge).make(sys, jc::checks::session()), gpgpu::UsageError);
  // overlapped_unrolled is built for three loaded widths, rows in pairs and 2 or 4 rows per step:
  // another tile or row count is named (the variant's limitation: --variant all skips it, --variant overlapped_unrolled exits 2).
  ch07c::TemporalOptions odd;
  odd.sweeps_per_trip = 3;
  for (const jc::TemporalTile t : {jc::TemporalTile{60, 16}, jc::TemporalTile{56, 15}}) {
    odd.tile_x = t.x;
    odd.tile_y = t.y;
    EXPECT_TRUE(ch07c::unrolled_tile_limitation(odd).has_value()) << t.x << "x" << t.y;
    EXPECT_THROW((void)ch07c::overlapped_unrolled_variant(odd).make(sys, jc::checks::session()), gpgpu::UsageError);
    // overlapped_persistent and overlapped_scaled run the same tiles: the same refusal.
    for (const Make same_tiles : {ch07c::overlapped_persistent_variant, ch07c::overlapped_scaled_variant}) {
      EXPECT_TRUE(same_tiles(odd).limitation(sys.grid, jc::checks::session()).has_value());
      EXPECT_THROW((void)same_tiles(odd).make(sys, jc::checks::session()), gpgpu::UsageError);
    }
  }
  odd.tile_y = 16;
  odd.tile_x = 120;
  EXPECT_FALSE(ch07c::unrolled_tile_limitation(odd).has_value());
  odd.rows_per_step = 3;  // built for 2 and 4 rows per step
  EXPECT_TRUE(ch07c::unrolled_tile_limitation(odd).has_value());
  EXPECT_THROW((void)ch07c::overlapped_unrolled_variant(odd).make(sys, jc::checks::session()), gpgpu::UsageError);
  EXPECT_THROW((void)ch07c::overlapped_scaled_variant(odd).make(sys, jc::checks::session()), gpgpu::UsageError);
  odd.rows_per_step = 4;
  odd.tile_y = 6;  // not a multiple of 4: the last step of a sweep updates two rows
  EXPECT_FALSE(ch07c::unrolled_tile_limitation(odd).has_value());
  // 16384² needs 24 B per node on chip: no GPU's shared memory holds that.
  EXPECT_TRUE(ch07c::persistent_variant().limitation(Grid{16384, 16384}, jc::checks::session()).has_value());
  EXPECT_FALSE(ch07c::persistent_variant().limitation(Grid{64, 64}, jc::checks::session()).has_value());
}

// overlapped_persistent: s = 1, 3, 4 with 2 and 4 rows per step, iteration counts that are whole
// trips (s, 3s: an odd count of them, so the result is in the other iterate) and that are not (one
// sweep: step 3's launch alone; 2s + 1; 8), on grids of one tile (1 x 1, 5 x 7), fewer than the GPU
// holds blocks, and of 3003 tiles (24011 x 14 in tiles 56 x 2), more than it holds: every block
// takes several tiles per trip (checked against the launch's own block count). Few rows and many
// columns: compute-sanitizer's initcheck seems to pay per row of every 2D copy and memset of the
// pitched arrays, and 700 x 400 (2600 tiles) made this the slowest test under it. Bit for bit
// against symmetric, and against the reference. One test per grid and s, like EverySweepsPerTrip.
struct TripsCase {
  Grid grid;
  int tile_y;
  int s;
  bool more_tiles_than_blocks;  // the many-tiles grid: the launch's blocks must each take several tiles
};

void PrintTo(const TripsCase& p, std::ostream* os) {
  *os << p.grid.str() << ", tiles " << p.tile_y << " rows high, s = " << p.s;
}

std::vector<TripsCase> overlapped_persistent_cases() {
  std::vector<TripsCase> cases;
  struct Shape {
    Grid grid;
    int tile_y;
    bool many;
  };
  for (const Shape& shape : {Shape{{1, 1}, 16, false}, Shape{{5, 7}, 16, false}, Shape{{24011, 14}, 2, true}})
    for (const int s : {1, 3, 4}) cases.push_back({shape.grid, shape.tile_y, s, shape.many});
  return cases;
}

class OverlappedPersistent : public ::testing::TestWithParam<TripsCase> {};

TEST_P(OverlappedPersistent, TripsRemaindersAndTileCounts) {
  const auto& [grid, tile_y, s, more_tiles_than_blocks] = GetParam();
  jc::LaunchOptions launch;
  launch.tune = false;
  const auto sys = gpgpu::jacobi::assemble_bidomain(grid);
  const auto x0 = checks::random_guess(grid.nodes(), 23);
  std::map<int, std::vector<float>> want;  // symmetric's iterate after each count of iterations
  for (const int rows : {2, 4})
    for (const int iters : {1, s, 2 * s + 1, 3 * s, 8}) {
      ch07c::TemporalOptions options;
      options.launch = &launch;
      options.sweeps_per_trip = s;
      options.tile_x = 64 - 2 * jc::halo_columns(s);
      options.tile_y = tile_y;
      options.rows_per_step = rows;
      const gpgpu::jacobi::Variant v = ch07c::overlapped_persistent_variant(options);
      if (const auto why = v.limitation(grid, jc::checks::session())) GTEST_SKIP() << *why;
      SCOPED_TRACE("overlapped_persistent on " + grid.str() + ", s = " + std::to_string(s) + ", " + std::to_string(rows) +
                   " rows per step, " + std::to_string(iters) + " iterations");
      if (!want.contains(iters)) want[iters] = run(jc::symmetric_variant(launch), sys, x0, iters);
      const auto solver = v.make(sys, jc::checks::session());
      const std::string how = solver->launch();
      const std::string cooperative = "cooperative launch of ";  // then the launch's block count
      const std::size_t at = how.find(cooperative);
      ASSERT_NE(at, std::string::npos) << how;
      if (more_tiles_than_blocks) {
        const long long tiles = static_cast<long long>(jc::blocks_for(grid.nx, options.tile_x)) * jc::blocks_for(grid.ny, tile_y);
        EXPECT_LT(std::stoll(how.substr(at + cooperative.size())), tiles) << how;
      }
      solver->reset(x0);
      solver->iterate(iters, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
      const std::vector<float> got = solver->solution();
      EXPECT_TRUE(same_bits(got, want[iters]));
      EXPECT_TRUE(checks::matches_reference(got, sys, x0, iters));
    }
}

INSTANTIATE_TEST_SUITE_P(Ch07c, OverlappedPersistent, ::testing::ValuesIn(overlapped_persistent_cases()),
                         [](const ::testing::TestParamInfo<TripsCase>& info) {
                           return "grid_" + info.param.grid.str() + "_s" + std::to_string(info.param.s);
                         });

}  // namespace
