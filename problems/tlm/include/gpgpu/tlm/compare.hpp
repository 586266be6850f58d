/// @file compare.hpp
/// @brief A variant's run against the reference's: its pulses, its probe and its energy, each
/// within the tolerance of its storage (reference.hpp).
///
/// - pulses: compare_normwise (relative 2-norm and max-norm) with the tolerance t.
/// - probe: every recorded value is half the sum of four pulses, so its error at step n is at most
///   the 2-norm of the error of all pulses, t·‖V(n)‖₂ = t·√E(n): the largest error over the run,
///   relative to the largest √E(n) of the reference, must be at most t.
/// - energy: Σv² of the pulses; a relative error t in the pulses changes it by at most 2t + t².
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
                          double tolerance);

}  // namespace gpgpu::tlm
