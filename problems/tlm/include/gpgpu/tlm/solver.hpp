/// @file solver.hpp
/// @brief What a TLM variant is, on any backend: a solver that owns its storage of the pulses, and
/// the variant that names it, its row of the work table and how to build it.
///
/// Every backend's host code implements Solver: chapter 11's CPU loops, its CUDA buffers and
/// launches, its OpenCL buffers and kernels. The problem (chapter.hpp) does the rest the same way
/// for all of them: reset to the initial pulses (untimed), run the steps (timed by the solver's
/// own clock), read the pulses and the probe back, compare them with the double-precision reference.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpgpu/tlm/reference.hpp"
#include "gpgpu/tlm/structure.hpp"
#include "gpgpu/variant.hpp"

namespace gpgpu::tlm {

/// What a solver is built for: the structure, its source and probe, and the most steps a run
/// makes between two resets (the probe's buffer holds kProbeValues floats for each).
struct Setup {
  Structure structure;
  Drive drive;
  int steps = 0;
};

/// The size a variant's check_fits and limitation judge: the mesh, and the steps its probe holds.
struct RunSize {
  Mesh mesh;
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

/// A variant of the TLM chapter: the core's (gpgpu/variant.hpp), built from a Setup into a Solver,
/// with its row of the work table and how it stores pulses.
struct Variant : gpgpu::Variant<RunSize, Setup, Solver> {
  std::string work = "scn_fused";  ///< its row of the work table (work.hpp)
  Storage storage = Storage::f32;  ///< how it stores pulses: picks its tolerance (reference.hpp)
};

}  // namespace gpgpu::tlm
