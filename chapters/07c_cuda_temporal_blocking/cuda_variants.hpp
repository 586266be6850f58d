/// @file cuda_variants.hpp
/// @brief Chapter 07c's host code and variants: 07b_04_symmetric.cu's storage (five diagonals and f
/// on chapter 05's pitched layout), swept several times per trip to memory. `overlapped` and
/// `wavefront` run s sweeps per launch (the last launch of a run the remainder); `persistent` runs
/// every sweep of a run in one cooperative launch, `overlapped_persistent` every full trip of s
/// sweeps. `overlapped_scaled` is overlapped_unrolled with ω / c on chip instead of c, no longer
/// symmetric's bits. Their rates are counted against the one-sweep floor of the symmetric storage,
/// which they may beat (Variant::reuses_across_sweeps).
#pragma once
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpgpu/cli.hpp"
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"

namespace ch07c {

/// The largest --sweeps-per-trip the command line accepts; the shared memory of the device may
/// allow fewer for a tile (the variant then says so and the run exits 2).
inline constexpr int kMaxSweepsPerTrip = 16;

/// The chapter's launch options: sweeps per launch and the tile; 0 for the tile: tuned (the
/// candidates of tile_candidates, timed) unless --no-tune, else the kernel's default.
struct TemporalOptions {
  int sweeps_per_trip = 4;  ///< the s of one variant's runs (the first of sweeps_list after parsing)
  std::vector<int> sweeps_list{4};  ///< --sweeps-per-trip: one s, or a list (2,4,8): runs_per_sweeps()
  int tile_x = 0;           ///< --tile-x: columns of a block's tile (overlapped) or strip (wavefront), a multiple of 4
  int tile_y = 0;           ///< --tile-y: rows of a block's tile, or of its part of the strip
  int rows_per_step = 0;    ///< --rows-per-step: rows a thread of overlapped_unrolled updates per step, 2 or 4; 0 = tuned
  const gpgpu::jacobi::cuda::LaunchOptions* launch = nullptr;  ///< --no-tune (the CUDA launch group)
  [[nodiscard]] bool tuning() const { return (launch == nullptr || launch->tune) && tile_x == 0 && tile_y == 0; }
};

/// Adds --sweeps-per-trip, --tile-x, --tile-y and --rows-per-step (group "Temporal blocking").
void add_options(gpgpu::Cli& cli, TemporalOptions& options);

/// The runs of the chosen variants: each variant whose kernel depends on s (overlapped,
/// overlapped_columns, overlapped_unrolled, wavefront, overlapped_persistent, overlapped_scaled) once per s of
/// `base.sweeps_list`, named `<variant>_s<s>` when the list has more than one s, its options kept in
/// `per_sweeps` (which must outlive the runs); the others once, as they are. A run that `skip` names
/// a reason for (a tile overlapped_unrolled's kernel is not built for at that s) is left out after
/// `skip` is told (the same for overlapped_persistent and overlapped_scaled, which run its tiles).
[[nodiscard]] std::vector<gpgpu::jacobi::Variant> runs_per_sweeps(
    const std::vector<const gpgpu::jacobi::Variant*>& chosen, const TemporalOptions& base,
    std::deque<TemporalOptions>& per_sweeps, const std::function<void(const std::string&, const std::string&)>& skip);

/// Several sweeps per launch on the symmetric storage: 07c_01_overlapped.cu, 07c_02_overlapped_columns.cu,
/// 07c_03_overlapped_unrolled.cu, 07c_04_wavefront.cu or 07c_07_overlapped_scaled.cu.
class SweepsPerLaunchSolver : public gpgpu::jacobi::cuda::PitchedSolver {
 public:
  enum class Kernel { overlapped, overlapped_columns, overlapped_unrolled, wavefront, overlapped_scaled };
  /// Whether a kernel runs 07c_03_overlapped_unrolled.cu's tiles (its widths, even heights, 2 or 4
  /// rows per step): overlapped_unrolled and overlapped_scaled.
  [[nodiscard]] static bool unrolled_tiles(Kernel kernel) {
    return kernel == Kernel::overlapped_unrolled || kernel == Kernel::overlapped_scaled;
  }
  SweepsPerLaunchSolver(const gpgpu::jacobi::LinearSystem& sys, Kernel kernel, const TemporalOptions& options);
  /// Times every tile of tile_candidates that fits over `iters` iterations (for overlapped_unrolled
  /// and overlapped_scaled each with 2 and 4 rows per step, unless --rows-per-step names one), keeps
  /// the fastest.
  std::string tune(int iters, float omega) override;
  /// "s = 4 sweeps per launch, tile 64x32, 92160 B shared memory per block, pitch 1056 floats"
  /// (overlapped_unrolled, overlapped_scaled: "tile 56x16, 4 rows per step, ...").
  [[nodiscard]] std::string launch() const override;

 protected:
  int advance(int remaining, float omega) override;
  /// The kernels' arguments for the next launch: the current iterate in, the other out.
  [[nodiscard]] gpgpu::jacobi::cuda::SymmetricArgs symmetric_args(float omega);
  /// "tile 56x16", and for overlapped_unrolled and overlapped_scaled ", 4 rows per step".
  [[nodiscard]] std::string shape_text() const;
  /// "49152 B shared memory per block, pitch 1056 floats".
  [[nodiscard]] std::string memory_text() const;
  int sweeps_;
  gpgpu::jacobi::cuda::TemporalTile tile_;
  int rows_per_step_;  ///< overlapped_unrolled's and overlapped_scaled's rows per step (2 or 4)

 private:
  void step(int in, float omega) override;
  void launch_unrolled(const gpgpu::jacobi::cuda::SymmetricArgs& s, int sweeps) const;
  [[nodiscard]] std::size_t shared_bytes(int sweeps, gpgpu::jacobi::cuda::TemporalTile tile) const;
  Kernel kernel_;
  std::vector<int> rows_to_tune_;  ///< the rows per step tune() tries: {2, 4}, or the one --rows-per-step names
  bool tuning_;
  std::size_t shared_limit_;
};

/// overlapped_unrolled's tiles (tuned as it is), every full trip of s sweeps of a run in one
/// cooperative launch with a grid-wide barrier between trips: 07c_06_overlapped_persistent.cu. The
/// remainder of a run whose iterations are not a multiple of s: overlapped_unrolled's own launch.
class TripsPerLaunchSolver final : public SweepsPerLaunchSolver {
 public:
  TripsPerLaunchSolver(const gpgpu::jacobi::LinearSystem& sys, const TemporalOptions& options, int sm_count);
  /// "s = 4 sweeps per trip, every full trip in one cooperative launch of 528 blocks (4 per SM),
  /// the remainder by overlapped_unrolled's; tile 56x16, 4 rows per step, ...".
  [[nodiscard]] std::string launch() const override;

 private:
  int advance(int remaining, float omega) override;
  /// The grid of the cooperative launch for the tile and rows per step now chosen, and its blocks per SM.
  [[nodiscard]] std::pair<int, int> grid_blocks() const;
  int sm_count_;
};

/// Every sweep of a run in one cooperative launch, the coefficients on chip: 07c_05_persistent.cu.
class PersistentSolver final : public gpgpu::jacobi::cuda::PitchedSolver {
 public:
  PersistentSolver(const gpgpu::jacobi::LinearSystem& sys, int sm_count);
  /// "132 blocks (one per SM), 8 rows each on chip, 221184 B shared memory, pitch 1056 floats; grid
  /// barrier alone 1.50 us per sweep (200 barriers, this launch's shape)".
  [[nodiscard]] std::string launch() const override;

 private:
  int advance(int remaining, float omega) override;
  void step(int in, float omega) override;
  /// Grid barriers timed alone at construction: enough that the events' 0.5 µs resolution is lost.
  static constexpr int kBarriersTimed = 200;
  int blocks_;
  int rows_per_block_;
  double barrier_seconds_ = 0;  ///< one grid-wide barrier of this launch's shape, alone
};

/// The tiles tune() tries for a kernel at `sweeps` sweeps per launch, in order (the first is the default).
[[nodiscard]] std::vector<gpgpu::jacobi::cuda::TemporalTile> tile_candidates(SweepsPerLaunchSolver::Kernel kernel, int sweeps);

/// Why the persistent kernel cannot hold `grid` on this device (its coefficients do not fit into
/// the shared memory of one block per SM, or the device has no cooperative launch), or nullopt.
[[nodiscard]] std::optional<std::string> persistent_limitation(const gpgpu::jacobi::Grid& grid, int sm_count,
                                                               std::size_t shared_per_block, bool cooperative);

/// `overlapped`: kernels/jacobi/cuda/07c_01_overlapped.cu. `options` must outlive the variant.
gpgpu::jacobi::Variant overlapped_variant(const TemporalOptions& options);
/// `overlapped_columns`: kernels/jacobi/cuda/07c_02_overlapped_columns.cu.
gpgpu::jacobi::Variant overlapped_columns_variant(const TemporalOptions& options);
/// `overlapped_unrolled`: kernels/jacobi/cuda/07c_03_overlapped_unrolled.cu; its limitation: a tile
/// (--tile-x, --tile-y) or a count of rows per step (--rows-per-step) the kernel is not built for.
gpgpu::jacobi::Variant overlapped_unrolled_variant(const TemporalOptions& options);
/// Why `options`' tile cannot run on 07c_03_overlapped_unrolled.cu (a loaded width other than 64, 128
/// or 256 columns, an odd height, rows per step other than 2 or 4), or nullopt.
[[nodiscard]] std::optional<std::string> unrolled_tile_limitation(const TemporalOptions& options);
/// `wavefront`: kernels/jacobi/cuda/07c_04_wavefront.cu.
gpgpu::jacobi::Variant wavefront_variant(const TemporalOptions& options);
/// `persistent`: kernels/jacobi/cuda/07c_05_persistent.cu.
gpgpu::jacobi::Variant persistent_variant();
/// `overlapped_persistent`: kernels/jacobi/cuda/07c_06_overlapped_persistent.cu; its limitation:
/// overlapped_unrolled's, and a device without cooperative launch.
gpgpu::jacobi::Variant overlapped_persistent_variant(const TemporalOptions& options);
/// `overlapped_scaled`: kernels/jacobi/cuda/07c_07_overlapped_scaled.cu, overlapped_unrolled's tiles
/// with ω / c on chip instead of c (not bit for bit symmetric: checked against the reference); its
/// limitation: overlapped_unrolled's.
gpgpu::jacobi::Variant overlapped_scaled_variant(const TemporalOptions& options);

}  // namespace ch07c
