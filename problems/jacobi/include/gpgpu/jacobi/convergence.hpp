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
  /// Whether a solver that can (the five-argument iterate_checked) waits for the norm of iteration k
  /// while sweep k+1 runs, instead of before launching it. The same stop and iterate either way.
  bool overlap = true;

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

/// The same loop for a solver that can wait for a norm one sweep later. Jacobi ping-pongs two
/// buffers: sweep k+1 reads x_k and writes the buffer that held x_{k−1}, so x_k survives it, and the
/// norm of iteration k can be reduced (a device-to-host copy, an allreduce) while sweep k+1 runs.
///   run(count, norm_wanted)  runs `count` iterations; when norm_wanted, starts the reduction of
///                            the last one's norm (combined over every part) and does not wait for it
///   wait_norm()              waits for the oldest norm started and not yet waited for; returns it
///   step_back()              makes the iterate before the last sweep the current one again
/// With check.overlap off each norm is waited for right after its sweep, before the next is
/// launched: the loop above. On, the norm of checked iteration k is waited for once sweep k+1 is
/// under way; if it says stop, sweep k+1's work is discarded (step_back) and the run stops at k with
/// x_k: the same stop and, bit for bit, the same iterate as off, for one sweep of wasted work at the
/// end instead of an idle wait at every check. Every norm started is waited for, the discarded
/// sweep's too (an allreduce that every rank started must complete on every rank). The last
/// iteration allowed has no next sweep to hide its norm: that one is waited for at once.
//! [iterate_overlapped]
template <typename Run, typename Wait, typename StepBack>
Stop iterate_checked(int iters, const Convergence& check, Run&& run, Wait&& wait_norm, StepBack&& step_back) {
  if (!check.on() || !check.overlap) {
    return iterate_checked(iters, check, [&](int count, bool norm_wanted) {
      run(count, norm_wanted);
      return norm_wanted ? wait_norm() : 0.0;
    });
  }
  Stop stop;
  int pending = 0;  // the checked iteration whose norm is in flight; 0: none
  while (stop.iterations < iters) {
    // With a norm in flight: one sweep (the one that hides it), then the decision.
    const int next = pending > 0 ? stop.iterations + 1
                                 : std::min(iters, (stop.iterations / check.check_every + 1) * check.check_every);
    const bool checked = check.checks(next);
    run(next - stop.iterations, checked);
    if (pending > 0) {
      stop.norm = wait_norm();
      if (check.converged(stop.norm)) {
        if (checked) (void)wait_norm();  // the discarded sweep's own norm
        step_back();
        stop.iterations = pending;
        return stop;
      }
    }
    stop.iterations = next;
    pending = checked ? next : 0;
  }
  if (pending > 0) stop.norm = wait_norm();
  return stop;
}
//! [iterate_overlapped]

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

/// Adds --tol, --check-every and --check-overlap to `cli` (group "Convergence"). --tol needs
/// --check-every; a negative or non-finite tolerance, a check interval below 1 and an overlap other
/// than on or off are usage errors (exit 2).
void add_convergence_options(Cli& cli, Convergence& check);

}  // namespace gpgpu::jacobi
