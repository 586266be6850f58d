/// @file physics.hpp
/// @brief The checks that the reference obeys the physics, not just the variants the reference:
/// energy conserved in a closed lossless box, the box's resonances at (c/2)·√((m/a)²+(n/b)²+(p/d)²),
/// the waveguide's TE10 cut-off at c/(2a).
///
/// Frequencies come from the probe's spectrum (spectrum.hpp). A resonance passes when its peak lies
/// (1) within δ of the frequency the mesh's own dispersion relation predicts for that mode's wave
/// vector (dispersion.hpp: a mode of a box with PEC walls on the cell faces is a standing wave of
/// exactly k = (mπ/a, nπ/b, pπ/d)), and (2) between the analytic frequency slowed by the stated
/// bound, 0.6 %·(10Δl/λ)², and the analytic frequency, each ± δ. δ is the peak's location error:
/// a tenth of a bin 1/(NΔt) (tests/test_physics.cpp measures the Hann-window peak search on the
/// sum of two sines 4 bins apart, one 0.3 of the other: under 0.05 bins; lines are checked only
/// 6 bins or more from any other).
#pragma once
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gpgpu/tlm/structure.hpp"

namespace gpgpu::tlm {

/// The peak location error δ, in bins.
inline constexpr double kPeakErrorBins = 0.1;
/// Two expected lines closer than this (in bins) cannot be told apart: neither is checked.
inline constexpr double kMinSeparationBins = 6.0;

/// One expected line of a spectrum and what the probe showed there.
struct Resonance {
  std::string mode;          ///< "TM110", "TE101"
  int m = 0, n = 0, p = 0;
  double f_analytic = 0;     ///< Hz
  double f_discrete = 0;     ///< Hz, from the mesh's dispersion relation
  double f_measured = 0;     ///< Hz (the peak); 0 when not found
  double bound = 0;          ///< the stated dispersion bound at this frequency (relative)
  double delta = 0;          ///< Hz: the peak location error allowed
  bool pass = false;
};

/// The outcome of one physics check.
struct PhysicsCheck {
  std::string name;       ///< "energy", "resonances", "cut-off"
  bool checked = false;   ///< false: not applicable to this run (too short, other scenario)
  bool pass = false;
  std::string summary;    ///< one line
  std::vector<Resonance> lines;
};
void to_json(nlohmann::json& j, const PhysicsCheck& c);
void to_json(nlohmann::json& j, const Resonance& r);

/// Energy conservation: from the step the source stops (d.quiet_from()) to the end, Σv² may drift
/// by at most 43u per step relative to its value (the FP32 bound of tolerance() with the unit
/// roundoff of double, u = 2⁻⁵³: orthogonal scatter, permutation connect, lossless walls).
PhysicsCheck check_energy(std::span<const double> energy_per_step, int quiet_from);

/// The TM modes of the box (m, n ≥ 1, p ≥ 0: the modes with Ez, which the cavity's source and
/// probe couple to) that a probe of `steps` samples can show: λ ≥ 8Δl, Ez not near zero at the
/// source or the probe (|sin·sin·cos| ≥ 0.2 at both), no other coupled mode within 6 bins.
std::vector<Resonance> expected_cavity_lines(const Structure& s, const Drive& d, int steps);

/// The resonances of the cavity in the probe's `signal` (its Ez voltage per step).
PhysicsCheck check_resonances(const Structure& s, const Drive& d, std::span<const double> signal);

/// Content of the spectrum the box cannot have, in bins from a mode of the box or from zero frequency.
inline constexpr double kSpuriousWindowBins = 12.0;
/// ... and its largest magnitude there, relative to the strongest line.
inline constexpr double kSpuriousThreshold = 1e-3;

/// No lines but the box's: the probe's windowed spectrum (spectrum.hpp, a grid of half bins up to
/// λ = 8Δl) stays below kSpuriousThreshold of its strongest line everywhere farther than
/// kSpuriousWindowBins from zero frequency and from every mode of the box, TE and TM, whether the
/// source and probe couple to it or not (each mode's window spans its frequencies the dispersion
/// bound allows, doubled, plus the bins). Why these numbers: the Hann window's sidelobes at k bins
/// from a line are at most 1/(πk(k²−1)) of it, 1.9e-4 at 12 bins, so the lines themselves leave
/// less than a fifth of the threshold there unless five of them pile up on one frequency. Zero
/// frequency is the mesh's too: its static solutions (two conserved charges per cell corner) hold
/// the field that a source of non-zero mean leaves behind, constant and removed with the mean, and
/// what appears while it builds up. Not checked where no TM line is checked (check_resonances) or
/// where the windows leave no frequency to look at.
PhysicsCheck check_spurious_lines(const Structure& s, const Drive& d, std::span<const double> signal);

/// The TE10p resonances of the closed guide (p ≥ 1: the TE10 wave standing between the end walls)
/// that the probe can show below 1.5 f_c, with the same rules.
std::vector<Resonance> expected_guide_lines(const Structure& s, const Drive& d, int steps);

/// The guide's cut-off: the TE10p peaks pass as resonances do, and f_c from a least-squares fit of
/// f_p² = f_c² + (p·c/2L)² to the measured peaks lies within the resonances' allowance of c/(2a)
/// (21.08 GHz for WR-28). Not checked when fewer than two lines can be resolved.
PhysicsCheck check_cutoff(const Structure& s, const Drive& d, std::span<const double> signal);

/// The probe's record of one node voltage (polarisation 0, 1, 2) from the kProbeValues per step.
std::vector<double> probe_component(std::span<const double> probe, int component);

}  // namespace gpgpu::tlm
