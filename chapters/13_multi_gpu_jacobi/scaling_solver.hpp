/// @file scaling_solver.hpp
/// @brief A solver whose grid is split over several parts (GPUs or MPI ranks), and that can run
/// its iteration with the exchange alone or the compute alone: the split of the time per iteration
/// into compute and exchange that the chapter's tables show.
#pragma once
#include "gpgpu/jacobi/solver.hpp"

namespace ch13 {

/// What an iteration does.
enum class Mode : int {
  full,           ///< compute, then exchange the boundary rows (the solver)
  compute_only,   ///< the same launches without the exchange (what one part's compute costs)
  exchange_only,  ///< the same exchange without the compute (what the exchange alone costs)
};

class ScalingSolver : public gpgpu::jacobi::Solver {
 public:
  double iterate(int iters, float omega) final { return timed(iters, omega, Mode::full); }
  /// Runs `iters` iterations in `mode` and returns their time in seconds (host clock, every part
  /// finished); NaN when this solver cannot run `mode` (peer stores: the exchange is part of the
  /// kernel). Compute-only and exchange-only runs leave a meaningless iterate: reset() after them.
  virtual double timed(int iters, float omega, Mode mode) = 0;
  /// How many parts (GPUs, ranks) the grid is split over.
  [[nodiscard]] virtual int parts() const = 0;
};

}  // namespace ch13
