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
#pragma once
#include <span>

#include "gpgpu/tlm/reference.hpp"
#include "gpgpu/verify.hpp"

namespace gpgpu::tlm {

struct RunComparison {
  Verification pulses, probe, energy;
  [[nodiscard]] Verification all() const;
};

RunComparison compare_run(std::span<const float> pulses, std::span<const float> probe, const ReferenceRun& reference,
                          const Tolerance& tolerance);

/// Whether the reference's field after its last step lies within the tolerance's floor: then zero
/// pulses pass as well as the right ones, and the run cannot tell a right result from a wrong one.
[[nodiscard]] bool below_floor(const ReferenceRun& reference, const Tolerance& tolerance);

}  // namespace gpgpu::tlm
