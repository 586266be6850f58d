/// @file convergence.hpp
/// @brief Stopping on convergence: the norm of the update, ‖x_k − x_{k−1}‖₂, computed every
/// `check_every` iterations and compared with a tolerance; its double-precision reference, and the
/// bound within which a single-precision variant's norm must agree with the reference's.
///
/// The norm is the one NVIDIA's multi-GPU Jacobi sample computes (the L2 norm of the update, not
/// divided by the number of nodes; the sample sums it in float, its `real`, we in double): each node's difference of two
/// float iterates is taken in float, as the iterate is stored, then squared and summed in double.
/// A float squared is exact in double, so the only rounding of the sum is the double additions'.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "gpgpu/cli.hpp"
#include "gpgpu/jacobi/bidomain.hpp"

namespace gpgpu::jacobi {

/// When the norm is computed and when the iteration stops.
struct Convergence {
  double tol = 0;       ///< stop after the first checked iteration whose norm is below tol
  int check_every = 0;  ///< the norm after every check_every-th iteration; 0: never (a fixed count)

  [[nodiscard]] bool on() const { return check_every > 0; }
  /// Whether the norm is computed after `done` iterations (counted from 1).
  [[nodiscard]] bool checks(int done) const { return on() && done % check_every == 0; }
  [[nodiscard]] bool converged(double norm) const { return norm < tol; }
};

/// Where a run stopped: the iterations it ran and the last norm it computed (NaN when none).
struct Stop {
  int iterations = 0;
  double norm = std::numeric_limits<double>::quiet_NaN();
};

/// The loop of every solver that stops on convergence: runs `iters` iterations as calls of
/// `run(count, norm_wanted)`, which runs `count` iterations and, when norm_wanted, returns the norm of
/// the last one (combined over every part: each rank of a distributed solver gets the same value, so
/// all stop together). Off, it is one call of `iters`; on, one call from check to check.
//! [iterate_checked]
template <typename Run>
Stop iterate_checked(int iters, const Convergence& check, Run&& run) {
  Stop stop;
  if (!check.on()) {
    (void)run(iters, false);
    stop.iterations = iters;
    return stop;
  }
  while (stop.iterations < iters) {
    const int next = std::min(iters, (stop.iterations / check.check_every + 1) * check.check_every);
    const bool checked = check.checks(next);  // false for a last stretch that ends short of a check
    const double norm = run(next - stop.iterations, checked);
    stop.iterations = next;
    if (!checked) continue;
    stop.norm = norm;
    if (check.converged(norm)) break;
  }
  return stop;
}
//! [iterate_checked]

/// Σ_k (x_new[k] − x_old[k])² over n values: each difference in float, squared and summed in double.
[[nodiscard]] double squared_update(const float* x_new, const float* x_old, std::int64_t n);

/// The double-precision reference (reference.hpp) run under `check`: at most `iters` iterations,
/// stopping where a single-precision variant stops, with its norm computed in double.
struct ReferenceRun {
  std::vector<double> x;  ///< the last iterate
  Stop stop;
  double x_norm = 0;  ///< ‖x‖₂ of the last iterate (the scale of the bound below)
};
ReferenceRun jacobi_reference_until(const LinearSystem& sys, std::span<const float> x0, int iters, double omega,
                                    const Convergence& check, const std::function<void(int, int)>& progress = {});

/// How far a single-precision variant's norm after `iterations` iterations may lie from the
/// reference's `reference_norm`, on a grid of `nodes` unknowns whose iterate has norm `x_norm`.
/// Derivation (convergence.cpp): the two iterates each lie within jacobi_tolerance(iterations) of
/// the reference's, relative to its norm; the float difference of each node rounds once; the double
/// sum of `nodes` squares adds nodes·2⁻⁵³ relative.
[[nodiscard]] double update_norm_bound(double reference_norm, double x_norm, int iterations, std::int64_t nodes);

/// Adds --tol and --check-every to `cli` (group "Convergence"). --tol needs --check-every; a
/// negative or non-finite tolerance and a check interval below 1 are usage errors (exit 2).
void add_convergence_options(Cli& cli, Convergence& check);

}  // namespace gpgpu::jacobi
