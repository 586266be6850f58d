/// @file scaling_solver.hpp
/// @brief A solver whose grid is split over several parts (GPUs or MPI ranks), and that can run
/// its iteration with the exchange alone or the compute alone: the split of the time per iteration
/// into compute and exchange that the chapter's tables show.
#pragma once
#include <string>

#include "gpgpu/jacobi/convergence.hpp"
#include "gpgpu/jacobi/launch_tuning.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch13 {

//! [mode]
/// What an iteration does: every variant's step takes one, so that the time per iteration can be
/// split into its compute and its exchange.
enum class Mode : int {
  full,           ///< compute, then exchange the boundary rows (the solver)
  compute_only,   ///< the same launches and event waits without the exchange (what one part's compute costs)
  exchange_only,  ///< the same exchange without the compute (what the exchange alone costs)
};
//! [mode]

/// How a GPU part launches chapter 07b's symmetric kernel (rows per thread 0: chapter 07b's rule).
using gpgpu::jacobi::LaunchShape;
using gpgpu::jacobi::Convergence;
using gpgpu::jacobi::Stop;

class ScalingSolver : public gpgpu::jacobi::Solver {
 public:
  double iterate(int iters, float omega) final { return timed(iters, omega, Mode::full); }
  /// Runs `iters` iterations in `mode` and returns their time in seconds (host clock, every part
  /// finished); NaN when this solver cannot run `mode` (peer stores: the exchange is part of the
  /// kernel). Compute-only and exchange-only runs leave a meaningless iterate: reset() after them.
  virtual double timed(int iters, float omega, Mode mode) = 0;
  /// How many parts (GPUs, ranks) the grid is split over.
  [[nodiscard]] virtual int parts() const = 0;
  /// Every part launches with `shape` from now on; false where there is nothing to shape (the CPU).
  virtual bool set_launch(const LaunchShape& shape) {
    (void)shape;
    return false;
  }
  /// Chapter 07b's --tune for every variant alike, the baseline included: times the whole iteration
  /// (compute and exchange) with each shape of gpgpu::jacobi::fastest_launch on every part, keeps
  /// the fastest and says which; "" on the CPU. Leaves an arbitrary iterate.
  std::string tune(int iters, float omega) final;
  /// The stopping rule of the runs in Mode::full from now on (default off: the fixed count). The
  /// other modes ignore it: their iterates mean nothing, nor would their norms.
  void set_convergence(const Convergence& check) { check_ = check; }
  /// Where the last run in Mode::full stopped and the last norm it computed.
  [[nodiscard]] const Stop& stop() const { return stop_; }
  /// Whether the runs under set_convergence's rule wait for a check's norm during the next sweep
  /// (--check-overlap on, for a solver that can: convergence.hpp) rather than before it.
  [[nodiscard]] virtual bool overlaps_check() const { return check_.on() && check_.overlap; }

 protected:
  /// The rule for a run in `mode`.
  [[nodiscard]] Convergence check_for(Mode mode) const { return mode == Mode::full ? check_ : Convergence{}; }

  Convergence check_;
  Stop stop_;
};

}  // namespace ch13
