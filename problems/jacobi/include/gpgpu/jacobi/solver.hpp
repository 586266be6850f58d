/// @file solver.hpp
/// @brief What a Jacobi variant is, on any backend: a solver that owns its storage layout, and the
/// record that names it, its backend and how to build it.
///
/// Every chapter's host code implements Solver: chapter 01's CPU loops, chapter 02's ping-pong
/// textures, chapter 03's cudaMalloc and launch loop, chapter 08's OpenCL buffers. The chapter run
/// (chapter.hpp) does the rest the same way for all of them: reset from the initial guess
/// (untimed, as in the paper), iterate (timed by the solver's own clock), read the solution back,
/// verify it against the double-precision reference.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/backend.hpp"
#include "gpgpu/jacobi/bidomain.hpp"
#include "gpgpu/variant.hpp"

namespace gpgpu::jacobi {

/// One weighted Jacobi solver on one device.
class Solver {
 public:
  virtual ~Solver() = default;
  /// Starts over from x0 (nx*ny values) and poisons the other iterate's unknowns with NaN, so an
  /// element a kernel fails to write shows up in the result. Untimed.
  virtual void reset(std::span<const float> x0) = 0;
  /// Runs `iters` iterations from the current iterate and returns their time in seconds, measured
  /// by the solver's own clock (host clock, CUDA events, OpenCL profiling events, GL timer queries).
  /// Successive calls continue the iteration.
  virtual double iterate(int iters, float omega) = 0;
  /// The current iterate (nx*ny values).
  [[nodiscard]] virtual std::vector<float> solution() = 0;
  /// How it runs: grid, block, layout ("grid 16384, block 64, ghost offset 1040"); may be empty.
  [[nodiscard]] virtual std::string launch() const { return {}; }
  /// Times the launch configurations the solver offers over `iters` iterations, keeps the fastest
  /// and says what it chose; "" when there is nothing to tune. Leaves an arbitrary iterate: call
  /// reset() afterwards.
  virtual std::string tune(int iters, float omega) {
    (void)iters;
    (void)omega;
    return {};
  }
};

/// A variant of a Jacobi chapter: built from the assembled system into a Solver.
struct Variant : gpgpu::Variant<Grid, LinearSystem, Solver> {
  std::string work = "jacobi9";  ///< its row of the work table (work.hpp)
  std::string pipeline;          ///< the launch path its limit is measured on (StreamMix::pipeline)
  /// Keeps values on chip across sweeps (chapter 07c): its GB/s and time/floor are then counted
  /// against the one-sweep floor of `work`, which it may beat (Work::reuses_across_steps).
  bool reuses_across_sweeps = false;
};

/// The fastest CPU layout of chapter 01 on this host and system, for the speedup columns of the
/// GPU chapters: seconds per iteration, best of a few samples.
struct CpuBaseline {
  double single_thread_s_per_iter = 0;
  double multi_thread_s_per_iter = 0;
  int threads = 1;
  int sample_iters = 0;
};

/// Its JSON: sample_iters, single_thread_ms_per_iter, multi_thread_ms_per_iter, threads.
inline void to_json(nlohmann::json& j, const CpuBaseline& b) {
  j = {{"sample_iters", b.sample_iters},
       {"single_thread_ms_per_iter", 1e3 * b.single_thread_s_per_iter},
       {"multi_thread_ms_per_iter", 1e3 * b.multi_thread_s_per_iter},
       {"threads", b.threads}};
}

}  // namespace gpgpu::jacobi
