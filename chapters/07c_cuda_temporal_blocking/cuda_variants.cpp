// Chapter 07c's host code, in the order a run uses it: the options, the variants, then the three
// solvers: several sweeps per launch (the last launch of a run does the remainder), every full trip
// of several sweeps in one cooperative launch, and one cooperative launch for every sweep.
#include "cuda_variants.hpp"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <memory>
#include <tuple>
#include <utility>

#include <CLI/CLI.hpp>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/table.hpp"
#include "jacobi/cuda/launchers.hpp"

namespace ch07c {

namespace jc = gpgpu::jacobi::cuda;
using gpgpu::jacobi::LinearSystem;
using gpgpu::jacobi::Variant;

namespace {

std::string tile_text(jc::TemporalTile t) { return std::to_string(t.x) + "x" + std::to_string(t.y); }

CLI::Validator multiple_of_4() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          const long long v = std::stoll(text);
          if (v >= 0 && v <= 1024 && v % 4 == 0) return {};
        } catch (const std::exception&) {
        }
        return "must be 0 or a multiple of 4 up to 1024";
      },
      "0|4..1024, a multiple of 4");
}

}  // namespace

void add_options(gpgpu::Cli& cli, TemporalOptions& o) {
  CLI::Option_group& g = cli.group("Temporal blocking");
  g.add_option("--sweeps-per-trip", o.sweeps_list,
               "sweeps each launch of the overlapped and wavefront kernels runs on chip before it writes x (s); "
               "a comma-separated list (1,2,4,8) runs them once per s, against one reference")
      ->delimiter(',')
      ->check(gpgpu::integer_in_range(1, kMaxSweepsPerTrip))
      ->capture_default_str();
  cli.on_parsed([&o](const gpgpu::Cli&) { o.sweeps_per_trip = o.sweeps_list.front(); });
  g.add_option("--tile-x", o.tile_x, "columns of a block's tile (overlapped) or strip (wavefront); 0 = tuned")
      ->check(multiple_of_4())
      ->capture_default_str();
  g.add_option("--tile-y", o.tile_y, "rows of a block's tile (overlapped) or part of a strip (wavefront); 0 = tuned")
      ->check(gpgpu::integer_in_range(0, 1024))
      ->capture_default_str();
  g.add_option("--rows-per-step", o.rows_per_step,
               "rows each thread of overlapped_unrolled updates per step, 2 or 4; 0 = tuned (2 with --no-tune or a tile)")
      ->check(CLI::IsMember({0, 2, 4}))
      ->capture_default_str();
}

namespace {

/// Why `persistent` and `overlapped_persistent` refuse a device.
constexpr const char* kNoCooperativeLaunch = "this device has no cooperative launch (cudaDevAttrCooperativeLaunch)";

/// Whether the session's device can launch a cooperative grid, or the one line why not.
std::optional<std::string> cooperative_limitation(gpgpu::Session& gpu) {
  int cooperative = 0;
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, gpgpu::cuda::device_info(gpu).index));
  if (cooperative != 0) return std::nullopt;
  return kNoCooperativeLaunch;
}

/// A variant of SweepsPerLaunchSolver with `kernel`: its rates against the one-sweep floor, the
/// pitched arrays' size check. `options` must outlive it.
Variant sweeps_per_launch_variant(const char* name, const char* description, const char* source,
                                  SweepsPerLaunchSolver::Kernel kernel, const TemporalOptions& options) {
  Variant v = jc::cuda_variant(name, description, source, "", "jacobi9_symmetric");
  v.reuses_across_sweeps = true;
  v.make = [&options, kernel](const LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<SweepsPerLaunchSolver>(sys, kernel, options);
  };
  v.check_fits = jc::fits_pitched(name, 5);
  return v;
}

/// The same for a kernel of 07c_03_overlapped_unrolled.cu's tiles, with their limitation.
Variant unrolled_tiles_variant(const char* name, const char* description, const char* source,
                               SweepsPerLaunchSolver::Kernel kernel, const TemporalOptions& options) {
  Variant v = sweeps_per_launch_variant(name, description, source, kernel, options);
  v.limitation = [&options](const gpgpu::jacobi::Grid&, gpgpu::Session&) { return unrolled_tile_limitation(options); };
  return v;
}

}  // namespace

//! [variants]
Variant overlapped_variant(const TemporalOptions& options) {
  return sweeps_per_launch_variant("overlapped", "s sweeps per launch on a tile with an s-ring halo in shared memory",
                                   "kernels/jacobi/cuda/07c_01_overlapped.cu", SweepsPerLaunchSolver::Kernel::overlapped,
                                   options);
}

Variant overlapped_columns_variant(const TemporalOptions& options) {
  return sweeps_per_launch_variant("overlapped_columns",
                                   "overlapped's tile, each thread walking a column with its rows in registers",
                                   "kernels/jacobi/cuda/07c_02_overlapped_columns.cu",
                                   SweepsPerLaunchSolver::Kernel::overlapped_columns, options);
}

Variant overlapped_unrolled_variant(const TemporalOptions& options) {
  return unrolled_tiles_variant("overlapped_unrolled",
                                "overlapped_columns with constant offsets, 2 or 4 rows per step, no branch",
                                "kernels/jacobi/cuda/07c_03_overlapped_unrolled.cu",
                                SweepsPerLaunchSolver::Kernel::overlapped_unrolled, options);
}

Variant wavefront_variant(const TemporalOptions& options) {
  return sweeps_per_launch_variant("wavefront", "s sweeps per launch, a strip walked up row by row, s levels on chip",
                                   "kernels/jacobi/cuda/07c_04_wavefront.cu", SweepsPerLaunchSolver::Kernel::wavefront,
                                   options);
}

Variant persistent_variant() {
  Variant v = jc::cuda_variant("persistent", "one cooperative launch for all sweeps, coefficients kept in shared memory",
                               "kernels/jacobi/cuda/07c_05_persistent.cu", "", "jacobi9_symmetric");
  v.reuses_across_sweeps = true;
  v.make = [](const LinearSystem& sys, gpgpu::Session& gpu) {
    return std::make_unique<PersistentSolver>(sys, gpgpu::cuda::device_info(gpu).sm_count);
  };
  v.check_fits = jc::fits_pitched("persistent", 5);
  v.limitation = [](const gpgpu::jacobi::Grid& grid, gpgpu::Session& gpu) {
    const gpgpu::cuda::DeviceInfo& d = gpgpu::cuda::device_info(gpu);
    return persistent_limitation(grid, d.sm_count, d.shared_per_block_optin, !cooperative_limitation(gpu));
  };
  return v;
}

Variant overlapped_persistent_variant(const TemporalOptions& options) {
  Variant v = sweeps_per_launch_variant("overlapped_persistent",
                                        "overlapped_unrolled's tiles, every trip of s sweeps in one cooperative launch",
                                        "kernels/jacobi/cuda/07c_06_overlapped_persistent.cu",
                                        SweepsPerLaunchSolver::Kernel::overlapped_unrolled, options);
  v.make = [&options](const LinearSystem& sys, gpgpu::Session& gpu) {
    return std::make_unique<TripsPerLaunchSolver>(sys, options, gpgpu::cuda::device_info(gpu).sm_count);
  };
  v.limitation = [&options](const gpgpu::jacobi::Grid&, gpgpu::Session& gpu) {
    if (std::optional<std::string> why = unrolled_tile_limitation(options)) return why;
    return cooperative_limitation(gpu);
  };
  return v;
}

Variant overlapped_scaled_variant(const TemporalOptions& options) {
  return unrolled_tiles_variant("overlapped_scaled", "overlapped_unrolled with omega/c stored at the load: no division per sweep",
                                "kernels/jacobi/cuda/07c_07_overlapped_scaled.cu",
                                SweepsPerLaunchSolver::Kernel::overlapped_scaled, options);
}
//! [variants]

std::vector<Variant> runs_per_sweeps(const std::vector<const Variant*>& chosen, const TemporalOptions& base,
                                     std::deque<TemporalOptions>& per_sweeps,
                                     const std::function<void(const std::string&, const std::string&)>& skip) {
  // Each kernel that depends on s, and whether it runs step 3's unrolled tiles (whose widths and
  // rows per step a given s may rule out: that run is skipped with the reason).
  struct PerSweeps {
    const char* name;
    Variant (*make)(const TemporalOptions&);
    bool unrolled_tiles;
  };
  const PerSweeps per_s[] = {{"overlapped", overlapped_variant, false},
                             {"overlapped_columns", overlapped_columns_variant, false},
                             {"overlapped_unrolled", overlapped_unrolled_variant, true},
                             {"wavefront", wavefront_variant, false},
                             {"overlapped_persistent", overlapped_persistent_variant, true},
                             {"overlapped_scaled", overlapped_scaled_variant, true}};
  std::vector<Variant> runs;
  for (const Variant* v : chosen) {
    const auto kind = std::find_if(std::begin(per_s), std::end(per_s), [&](const PerSweeps& k) { return v->info.name == k.name; });
    if (kind == std::end(per_s)) {
      runs.push_back(*v);
      continue;
    }
    for (const int s : base.sweeps_list) {
      TemporalOptions& options = per_sweeps.emplace_back(base);
      options.sweeps_per_trip = s;
      Variant run = kind->make(options);
      if (base.sweeps_list.size() > 1) run.info.name += "_s" + std::to_string(s);
      if (kind->unrolled_tiles)
        if (const std::optional<std::string> why = unrolled_tile_limitation(options)) {
          skip(run.info.name, *why);
          continue;
        }
      runs.push_back(std::move(run));
    }
  }
  return runs;
}

namespace {

/// The tiles whose loaded width (the tile and its halo) is 64, 128 or 256 columns, at each height.
std::vector<jc::TemporalTile> loaded_width_tiles(int sweeps, std::initializer_list<int> heights) {
  const int halo = 2 * jc::halo_columns(sweeps);
  std::vector<jc::TemporalTile> tiles;
  for (const int width : {64, 128, 256})
    for (const int height : heights)
      if (width - halo >= 4) tiles.push_back({width - halo, height});
  return tiles;
}

}  // namespace

std::vector<jc::TemporalTile> tile_candidates(SweepsPerLaunchSolver::Kernel kernel, int sweeps) {
  switch (kernel) {
    case SweepsPerLaunchSolver::Kernel::overlapped:
      return {{64, 32}, {32, 32}, {64, 16}, {64, 64}, {128, 16}, {128, 32}, {32, 64}};
    case SweepsPerLaunchSolver::Kernel::overlapped_columns:
      // Loaded widths of whole warps: no idle lane in the block's first sweep; heights from a few
      // runs of rows to many.
      return loaded_width_tiles(sweeps, {24, 16, 32, 48, 64, 96});
    case SweepsPerLaunchSolver::Kernel::overlapped_unrolled:
    case SweepsPerLaunchSolver::Kernel::overlapped_scaled:  // the same tiles
      // The widths the kernel is built for; even heights (rows in pairs), each timed with 2 and 4 rows
      // per step. Between 16 and 32 in steps of four: a taller tile recomputes less halo per row it
      // keeps, a shorter one leaves more blocks per SM and a smaller last wave, and on a grid of a
      // few thousand tiles (2048²) which wins turns on a few percent of either.
      return loaded_width_tiles(sweeps, {24, 16, 20, 28, 32, 48, 64});
    case SweepsPerLaunchSolver::Kernel::wavefront: break;
  }
  return {{128, 128}, {64, 64}, {64, 128}, {128, 64}, {256, 64}, {256, 128}, {128, 256}};
}

std::optional<std::string> unrolled_tile_limitation(const TemporalOptions& options) {
  const int hx = jc::halo_columns(options.sweeps_per_trip);
  const jc::TemporalTile first = tile_candidates(SweepsPerLaunchSolver::Kernel::overlapped_unrolled, options.sweeps_per_trip).front();
  const int x = options.tile_x > 0 ? options.tile_x : first.x, y = options.tile_y > 0 ? options.tile_y : first.y;
  if (!jc::overlapped_unrolled_width(x + 2 * hx))
    return "--tile-x " + std::to_string(x) + " at s = " + std::to_string(options.sweeps_per_trip) + " loads " +
           std::to_string(x + 2 * hx) + " columns; this kernel is built for 64, 128 and 256 (--tile-x " +
           std::to_string(64 - 2 * hx) + ", " + std::to_string(128 - 2 * hx) + " or " + std::to_string(256 - 2 * hx) + ")";
  if (y % 2 != 0) return "--tile-y " + std::to_string(y) + ": this kernel updates rows in pairs and needs an even height";
  if (options.rows_per_step != 0 && !jc::overlapped_unrolled_rows(options.rows_per_step))
    return "--rows-per-step " + std::to_string(options.rows_per_step) + ": this kernel is built for 2 and 4";
  return std::nullopt;
}

std::optional<std::string> persistent_limitation(const gpgpu::jacobi::Grid& grid, int sm_count,
                                                 std::size_t shared_per_block, bool cooperative) {
  if (!cooperative) return kNoCooperativeLaunch;
  const int rows = (grid.ny + sm_count - 1) / sm_count;
  const std::size_t need = jc::persistent_shared_bytes(grid.nx, rows);
  if (need <= shared_per_block) return std::nullopt;
  return "the coefficients of " + grid.str() + " do not fit on chip: " + std::to_string(rows) +
         " rows per SM need " + std::to_string(need / 1024) + " KiB of shared memory per block, this GPU allows " +
         std::to_string(shared_per_block / 1024) + " KiB";
}

// --- Several sweeps per launch ----------------------------------------------------------------------

SweepsPerLaunchSolver::SweepsPerLaunchSolver(const LinearSystem& sys, Kernel kernel, const TemporalOptions& options)
    : PitchedSolver(sys, jc::kUpperDiagonals), sweeps_(options.sweeps_per_trip),
      tile_(tile_candidates(kernel, options.sweeps_per_trip).front()),
      rows_per_step_(options.rows_per_step > 0 ? options.rows_per_step : 2), kernel_(kernel), tuning_(options.tuning()) {
  // Only the unrolled tiles have a choice of rows per step; the other kernels are timed once per tile.
  rows_to_tune_ = unrolled_tiles(kernel) && options.rows_per_step == 0 ? std::vector<int>{2, 4}
                                                                       : std::vector<int>{rows_per_step_};
  if (options.tile_x > 0) tile_.x = options.tile_x;
  if (options.tile_y > 0) tile_.y = options.tile_y;
  if (unrolled_tiles(kernel))
    if (const std::optional<std::string> why = unrolled_tile_limitation(options)) throw gpgpu::UsageError(*why);
  int device = 0, limit = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  shared_limit_ = static_cast<std::size_t>(limit);
  if (shared_bytes(sweeps_, tile_) > shared_limit_)
    throw gpgpu::UsageError("--sweeps-per-trip " + std::to_string(sweeps_) + " with tile " + tile_text(tile_) + ": " +
                            std::to_string(shared_bytes(sweeps_, tile_)) + " B of shared memory per block, this GPU allows " +
                            std::to_string(shared_limit_) + " B (fewer sweeps or a smaller --tile-x/--tile-y)");
}

std::size_t SweepsPerLaunchSolver::shared_bytes(int sweeps, jc::TemporalTile tile) const {
  return kernel_ == Kernel::wavefront ? jc::wavefront_shared_bytes(sweeps, tile) : jc::overlapped_shared_bytes(sweeps, tile);
}

//! [advance]
int SweepsPerLaunchSolver::advance(int remaining, float omega) {
  const int sweeps = std::min(sweeps_, remaining);  // the last launch of a run: the remainder
  const jc::SymmetricArgs s = symmetric_args(omega);
  switch (kernel_) {
    case Kernel::overlapped: jc::launch_jacobi_overlapped(s, sweeps, tile_, nullptr); break;
    case Kernel::overlapped_columns: jc::launch_jacobi_overlapped_columns(s, sweeps, tile_, nullptr); break;
    case Kernel::overlapped_unrolled:
    case Kernel::overlapped_scaled: launch_unrolled(s, sweeps); break;  // which kernel: launch_unrolled
    case Kernel::wavefront: jc::launch_jacobi_wavefront(s, sweeps, tile_, nullptr); break;
  }
  current_ ^= 1;  // s sweeps on chip, one write: the other iterate holds the result
  return sweeps;
}
//! [advance]

jc::SymmetricArgs SweepsPerLaunchSolver::symmetric_args(float omega) {
  const auto a = [&](std::size_t i) { return array(i); };
  return {a(0), a(1), a(2), a(3), a(4), a(5), x(current_), x(1 - current_), grid().nx, grid().ny, pitch(), omega};
}

// The last launch of a run may do fewer sweeps, and fewer sweeps need a narrower halo: the tile
// grows by the halo it no longer needs, so that the loaded width stays one the kernel is built for.
void SweepsPerLaunchSolver::launch_unrolled(const jc::SymmetricArgs& s, int sweeps) const {
  const int narrower = 2 * (jc::halo_columns(sweeps_) - jc::halo_columns(sweeps));  // both sides
  const auto launch = kernel_ == Kernel::overlapped_scaled ? jc::launch_jacobi_overlapped_scaled
                                                           : jc::launch_jacobi_overlapped_unrolled;
  launch(s, sweeps, {tile_.x + narrower, tile_.y}, rows_per_step_, nullptr);
}

void SweepsPerLaunchSolver::step(int, float omega) { (void)advance(1, omega); }

std::string SweepsPerLaunchSolver::tune(int iters, float omega) {
  if (!tuning_) return {};
  std::pair<jc::TemporalTile, int> best{tile_, rows_per_step_};
  double best_s = std::numeric_limits<double>::infinity();
  int tried = 0;
  for (const jc::TemporalTile t : tile_candidates(kernel_, sweeps_)) {
    if (shared_bytes(sweeps_, t) > shared_limit_) continue;
    for (const int rows : rows_to_tune_) {
      tile_ = t;
      rows_per_step_ = rows;
      const double s = iterate(iters, omega);
      ++tried;
      if (s < best_s) {
        best_s = s;
        best = {t, rows};
      }
    }
  }
  std::tie(tile_, rows_per_step_) = best;
  return shape_text() + ": " + gpgpu::format_cell("%.4f", 1e3 * best_s / iters) + " ms/iter, fastest of " +
         std::to_string(tried) + (rows_to_tune_.size() > 1 ? " tiles and rows per step x " : " tiles x ") +
         std::to_string(iters) + " iterations";
}

std::string SweepsPerLaunchSolver::shape_text() const {
  std::string s = "tile " + tile_text(tile_);
  if (unrolled_tiles(kernel_)) s += ", " + std::to_string(rows_per_step_) + " rows per step";
  return s;
}

std::string SweepsPerLaunchSolver::memory_text() const {
  std::string s = std::to_string(shared_bytes(sweeps_, tile_));
  s += " B shared memory per block, pitch ";
  s += std::to_string(pitch());
  s += " floats";
  return s;
}

std::string SweepsPerLaunchSolver::launch() const {
  std::string s = "s = ";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string chains
  s += std::to_string(sweeps_);
  s += " sweeps per launch, ";
  s += shape_text();
  s += ", ";
  s += memory_text();
  return s;
}

// --- Every full trip in one launch ------------------------------------------------------------------

TripsPerLaunchSolver::TripsPerLaunchSolver(const LinearSystem& sys, const TemporalOptions& options, int sm_count)
    : SweepsPerLaunchSolver(sys, Kernel::overlapped_unrolled, options), sm_count_(sm_count) {
  if (grid_blocks().second < 1)
    throw gpgpu::UsageError("overlapped_persistent: a block of tile " + tile_text(tile_) + " at s = " + std::to_string(sweeps_) +
                            " cannot be resident on an SM of this GPU");
}

std::pair<int, int> TripsPerLaunchSolver::grid_blocks() const {
  const int per_sm = jc::overlapped_persistent_blocks_per_sm(sweeps_, tile_, rows_per_step_);
  const long long tiles = static_cast<long long>(jc::blocks_for(grid().nx, tile_.x)) * jc::blocks_for(grid().ny, tile_.y);
  return {jc::overlapped_persistent_blocks(tiles, per_sm, sm_count_), per_sm};
}

//! [trips]
int TripsPerLaunchSolver::advance(int remaining, float omega) {
  const int trips = remaining / sweeps_;
  if (trips == 0) return SweepsPerLaunchSolver::advance(remaining, omega);  // the remainder: step 3's launch
  const jc::SymmetricArgs s = symmetric_args(omega);
  jc::launch_jacobi_overlapped_persistent({s, {x(current_), x(1 - current_)}, trips}, sweeps_, tile_, rows_per_step_,
                                          grid_blocks().first, nullptr);
  if (trips % 2 == 1) current_ ^= 1;  // the iterates swapped roles `trips` times on the GPU
  return trips * sweeps_;
}
//! [trips]

std::string TripsPerLaunchSolver::launch() const {
  const auto [blocks, per_sm] = grid_blocks();
  std::string s = "s = ";
  s += std::to_string(sweeps_);
  s += " sweeps per trip, every full trip in one cooperative launch of ";
  s += std::to_string(blocks);
  s += " blocks (";
  s += std::to_string(per_sm);
  s += " per SM), the remainder by overlapped_unrolled's; ";
  s += shape_text();
  s += ", ";
  s += memory_text();
  return s;
}

// --- One launch for every sweep ---------------------------------------------------------------------

PersistentSolver::PersistentSolver(const LinearSystem& sys, int sm_count)
    : PitchedSolver(sys, jc::kUpperDiagonals), blocks_(sm_count), rows_per_block_((sys.grid.ny + sm_count - 1) / sm_count) {
  const std::size_t shared = jc::persistent_shared_bytes(grid().nx, rows_per_block_);
  if (jc::persistent_blocks_per_sm(shared) < 1)
    throw gpgpu::UsageError("persistent: a block with " + std::to_string(shared) +
                            " B of shared memory cannot be resident on an SM of this GPU");
  barrier_seconds_ = jc::grid_barrier_seconds(blocks_, shared, kBarriersTimed);
}

//! [persistent]
int PersistentSolver::advance(int remaining, float omega) {
  const auto a = [&](std::size_t i) { return array(i); };
  const jc::SymmetricArgs s{a(0), a(1), a(2), a(3), a(4), a(5), x(current_), x(1 - current_),
                            grid().nx, grid().ny, pitch(), omega};
  jc::launch_jacobi_persistent({s, {x(current_), x(1 - current_)}, remaining, rows_per_block_}, blocks_, nullptr);
  if (remaining % 2 == 1) current_ ^= 1;  // the iterates swapped roles `remaining` times on the GPU
  return remaining;
}
//! [persistent]

void PersistentSolver::step(int, float omega) { (void)advance(1, omega); }

std::string PersistentSolver::launch() const {
  std::string s = std::to_string(blocks_);
  s += " blocks (one per SM), ";
  s += std::to_string(rows_per_block_);
  s += " rows each on chip, ";
  s += std::to_string(jc::persistent_shared_bytes(grid().nx, rows_per_block_));
  s += " B shared memory, pitch ";
  s += std::to_string(pitch());
  s += " floats; grid barrier alone ";
  s += gpgpu::fmt("%.2f", barrier_seconds_ * 1e6);
  s += " us per sweep (";
  s += std::to_string(kBarriersTimed);
  s += " barriers, this launch's shape)";
  return s;
}

}  // namespace ch07c
