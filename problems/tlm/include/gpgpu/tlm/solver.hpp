/// @file solver.hpp
/// @brief What a TLM variant is, on any backend: a solver that owns its storage of the pulses, and
/// the record that names it, its backend, its row of the work table and how to build it.
///
/// Every backend's host code implements Solver: chapter 11's CPU loops, its CUDA buffers and
/// launches, its OpenCL buffers and kernels. The chapter run (chapter.hpp) does the rest the same
/// way for all of them: reset to the initial pulses (untimed), run the steps (timed by the solver's
/// own clock), read the pulses and the probe back, compare them with the double-precision reference.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpgpu/backend.hpp"
#include "gpgpu/registry.hpp"
#include "gpgpu/tlm/reference.hpp"
#include "gpgpu/tlm/structure.hpp"

namespace gpgpu::tlm {

/// What a solver is built for: the structure, its source and probe, and the most steps a run
/// makes between two resets (the probe's buffer holds kProbeValues floats for each).
struct Problem {
  Structure structure;
  Drive drive;
  int steps = 0;
};

/// One SCN TLM solver on one device.
class Solver {
 public:
  virtual ~Solver() = default;
  /// Starts over at step 0 from the incident pulses `incident` (12·nodes, canonical order,
  /// reference.hpp) and poisons every buffer a step writes with NaN, so a pulse a kernel fails to
  /// write shows up in the result. Untimed.
  virtual void reset(std::span<const float> incident) = 0;
  /// Runs `steps` steps from the current one (the source adds drive.value(n) at step n; the probe
  /// records each step) and returns their time in seconds on the solver's own clock (host clock,
  /// CUDA events, OpenCL profiling events). Successive calls continue the run.
  virtual double run(int steps) = 0;
  /// The incident pulses after the steps run so far (12·nodes, canonical order).
  [[nodiscard]] virtual std::vector<float> pulses() = 0;
  /// kProbeValues floats per step run since reset().
  [[nodiscard]] virtual std::vector<float> probe() = 0;
  /// How it runs: layout, grid, block ("segments of 64, grid 4 x 256 x 256, block 64"); may be empty.
  [[nodiscard]] virtual std::string launch() const { return {}; }
};

/// A variant of the TLM chapter.
struct VariantSpec {
  VariantInfo info;
  OpenerFactory opener = nullptr;   ///< its backend (gpgpu::cpu_opener, gpgpu::cuda::opener, ...)
  std::string work = "scn_fused";   ///< its row of the work table (work.hpp)
  Storage storage = Storage::f32;   ///< how it stores pulses: picks its tolerance (reference.hpp)
  std::string timer;                ///< "CUDA events", "steady_clock", "OpenCL profiling events"
  int threads = 0;                  ///< CPU variants: threads it runs on (0: the session's --threads)
  /// Builds the solver (allocates, uploads nothing yet: reset() does).
  std::function<std::unique_ptr<Solver>(const Problem&, Session&)> make;
  /// Throws UsageError when `steps` steps on the mesh do not fit the device (the pulses and a probe
  /// of kProbeValues floats per step); called before the reference runs. May be empty.
  std::function<void(const Mesh&, int steps, Session&)> check_fits;
  /// Why this device cannot run it at all, or nullopt. A named variant is then a usage error; one
  /// that came with "all" is skipped. May be empty.
  std::function<std::optional<std::string>(const Mesh&, Session&)> limitation;
};

using Registry = gpgpu::Registry<VariantSpec>;
using Registration = gpgpu::Registration<VariantSpec>;

}  // namespace gpgpu::tlm
