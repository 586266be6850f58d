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

#include "gpgpu/backend.hpp"
#include "gpgpu/jacobi/bidomain.hpp"
#include "gpgpu/registry.hpp"

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

/// A variant of a Jacobi chapter.
struct VariantSpec {
  VariantInfo info;
  DriverFactory driver = nullptr;  ///< its backend (gpgpu::cpu_driver, gpgpu::cuda::driver, ...)
  std::string work = "jacobi9";    ///< its row of the work table (work.hpp)
  std::string timer;               ///< how its solver times itself: "CUDA events", "steady_clock"
  int threads = 0;                 ///< CPU variants: threads it runs on (0: the session's --threads)
  std::string pipeline;            ///< the launch path its limit is measured on (StreamMix::pipeline)
  /// Builds the solver: uploads the matrix and f (untimed).
  std::function<std::unique_ptr<Solver>(const LinearSystem&, Session&)> make;
  /// Throws UsageError when `grid` does not fit the device (its memory, its largest buffer): called
  /// before the long reference starts, so such a run ends at once with exit code 2. May be empty.
  std::function<void(const Grid&, Session&)> check_fits;
  /// Why this device cannot run it at all (no image support, a texture too wide), or nullopt. A
  /// variant the user named is then a usage error; one that came with "all" is skipped.
  std::function<std::optional<std::string>(const Grid&, Session&)> limitation;
};

/// The variants of a chapter, in run order.
using Registry = gpgpu::Registry<VariantSpec>;
/// Registers a variant before main() (backend files of multi-backend chapters).
using Registration = gpgpu::Registration<VariantSpec>;

/// The fastest CPU layout of chapter 01 on this host and system, for the speedup columns of the
/// GPU chapters: seconds per iteration, best of a few samples.
struct CpuBaseline {
  double single_thread_s_per_iter = 0;
  double multi_thread_s_per_iter = 0;
  int threads = 1;
  int sample_iters = 0;
};

}  // namespace gpgpu::jacobi
