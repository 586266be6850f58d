/// @file compare.hpp
/// @brief A variant's run against the reference's: its pulses, its probe and its energy, each
/// within the tolerance of its storage (reference.hpp): t times the reference's size plus the
/// floor F (zero for FP32).
///
/// - pulses: compare_normwise (relative 2-norm and max-norm), each error at most t times the
///   reference's norm plus F; the tolerance reported is the 2-norm's, t + F/‖V‖₂.
/// - probe: every recorded value is half the sum of four pulses, so its error at step n is at most
///   the 2-norm of the error of all pulses, t·‖V(n)‖₂ + F = t·√E(n) + F: the largest error over the
///   run must be at most t times the largest √E(n) of the reference, plus F.
/// - energy: Σv² of the pulses; an error d in the pulses changes it by at most 2‖V‖₂d + d², with
///   d = t‖V‖₂ + F: relative to Σv², 2t + t² when F = 0.
///
/// Within the floor (below_floor: the reference's field is at most F) relative errors say nothing,
/// the reference being next to zero: all() then states the pulses' error in volts against what the
/// tolerance allows, "PASS: abs. error 4.1e-12 V <= 2.4e-05 V allowed (the field is within half
/// storage's floor: not judged)".
#pragma once
#include <span>

#include "gpgpu/tlm/reference.hpp"
#include "gpgpu/verify.hpp"

namespace gpgpu::tlm {

struct RunComparison {
  Verification pulses, probe, energy;
  /// The reference's field lies within the floor (below_floor); then the pulses' 2-norm error and
  /// what the tolerance allows it, t‖V‖₂ + F, in volts.
  bool within_floor = false;
  double error_volts = 0, allowed_volts = 0;
  /// The verdict of all three, with the numbers of the part that decided it (the first that fails,
  /// or the worst); within the floor, in volts where the pulses decided it.
  [[nodiscard]] Verification all() const;
};

RunComparison compare_run(std::span<const float> pulses, std::span<const float> probe, const ReferenceRun& reference,
                          const Tolerance& tolerance);

/// Whether the reference's field after its last step lies within the tolerance's floor: then zero
/// pulses pass as well as the right ones, and the run cannot tell a right result from a wrong one.
[[nodiscard]] bool below_floor(const ReferenceRun& reference, const Tolerance& tolerance);

}  // namespace gpgpu::tlm
