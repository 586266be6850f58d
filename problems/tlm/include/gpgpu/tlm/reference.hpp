/// @file reference.hpp
/// @brief The CPU double-precision reference every variant is compared with, the connect step on
/// whole arrays, the field energy, and the tolerances of the comparison.
///
/// Every array of pulses here is in the canonical order: port-major, pulses[p·nodes + node], node
/// in the mesh order of mesh.hpp. A variant stores its pulses however it likes (the paper's layout,
/// an array of structures, half precision) and converts to this order when it hands them back.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "gpgpu/tlm/structure.hpp"

namespace gpgpu::tlm {

/// The connect step (the paper's "transfer" and "reflection", Fig. 4) on whole arrays: every pulse
/// reflected from port p of a node becomes the pulse incident on the opposite port of the neighbour
/// across p's face, or, where that face is a wall, the pulse incident on port p itself, times −1.
/// Connect is its own inverse (each link swaps twice; a wall negates twice), so the same function
/// turns incident pulses back into the reflected pulses they came from.
template <typename T>
void connect(const Structure& s, std::span<const T> reflected, std::span<T> incident);

/// Σ v²: the field energy in units of Δt/Z0 (each pulse carries v²/Z0 for one step).
double energy(std::span<const double> pulses);
double energy(std::span<const float> pulses);

/// Called with (steps done, total) during a long run; may be empty.
using ProgressCallback = std::function<void(int, int)>;

/// What a run produces: the same for the reference (double) and the variants (float).
template <typename T>
struct RunResult {
  std::vector<T> pulses;  ///< the incident pulses after the last step, canonical order
  std::vector<T> probe;   ///< kProbeValues per step: the probe node's NodeFields
};

/// The reference: `steps` steps from the incident pulses `initial` (12·nodes, canonical; the
/// float values are exact in double). Each step: inject the source, record the probe, scatter
/// every node, connect. Also returns Σ v² before each step and after the last (steps + 1 values).
struct ReferenceRun {
  RunResult<double> result;
  std::vector<double> energy;
};
ReferenceRun run_reference(const Structure& s, const Drive& d, std::span<const float> initial, int steps,
                           const ProgressCallback& progress = {});

/// How a variant stores its pulses between steps.
enum class Storage { f32, f16 };

/// The tolerance of a variant against the reference after `steps` steps (both norms of
/// compare_normwise, and the probe and energy checks built on them): a relative part, t times the
/// reference's own size, and for half storage an absolute floor. From the error analysis:
///
/// FP32 (deterministic bound). A scatter forms each reflected pulse from six incident pulses with
/// at most eight roundings (three for the node voltage's four-term sum, three for the current's, two
/// to combine them, the ½ exact; each four-term sum errs by at most 3u times its terms' absolute sum,
/// at most 2‖v‖₂), so with u = 2⁻²⁴ its error is at most 12u‖v‖₂ for the node's 12 pulses v, and the
/// node's twelve errors together at most √12·12u ≈ 42u‖v‖₂; adding the source rounds once more
/// (u). Scatter is orthogonal and connect a signed permutation: neither amplifies an earlier error
/// in the 2-norm, so after N steps ‖error‖₂ ≤ 43u·N·‖V‖₂, plus one rounding of the initial pulses:
/// t = 43u(N + 1), 2.6e-6 per step. Measured errors grow like u√N, orders below it. FP32 needs no
/// floor: its normal range ends at 2⁻¹²⁶ ≈ 1e-38, 22 orders below the Gaussian's first value
/// (e⁻³⁶ V ≈ 2e-16 V), so its errors stay relative from the first step.
///
/// FP16 storage, FP32 arithmetic (probabilistic bound). Each step stores every pulse rounded to
/// half precision, a relative error up to u_h = 2⁻¹¹ ≈ 4.9e-4: the deterministic bound u_h·N
/// reaches 1 at 2000 steps and says nothing. Round-to-nearest errors are, to a good approximation,
/// independent with mean zero (Higham and Mary, SIAM J. Sci. Comput. 41(5), 2019); the orthogonal
/// step carries them without growth, so their sum after N steps has ‖error‖₂ ≈ u_h·√(N/3)·‖V‖₂
/// (each error uniform in ±u_h|v|: variance u_h²v²/3). The tolerance allows more than five of these
/// standard deviations, t = 3·u_h·√(N + 1), plus the FP32 bound above. Measured: 1.2e-2 after 3000
/// steps of the quick box (σ = 1.5e-2, tolerance 8.8e-2), 1.3e-3 after 150 steps at 128³.
///
/// FP16's floor. Below half's smallest normal number, 2⁻¹⁴ ≈ 6.1e-5, the spacing stays 2⁻²⁴ (the
/// smallest subnormal, 6e-8) and a pulse of at most 2⁻²⁵ flushes to zero: a store's error is at most
/// u_h·max(|v|, 2⁻¹⁴), not u_h|v|. So the run's errors are those of the analysis above for a field
/// of ‖V‖₂ + 2⁻¹⁴√P, P = 12·nodes pulses, each at least 2⁻¹⁴: the same random walk adds the floor
/// 3·u_h·√(N + 1)·2⁻¹⁴·√P = 3·2⁻²⁵·√(P(N + 1)) volts to t·‖V‖₂. (Away from the source node every
/// value stored is a multiple of 2⁻²⁵, since halves are multiples of 2⁻²⁴ and the scatter combines
/// them with ±½ and ±1, so below 2⁻¹⁴ a store is exact or a tie of ±2⁻²⁵ rounded to even: the
/// floor is three times the largest standard deviation these can have, and a 2-norm of that many
/// terms stays near its mean.) The floor is what makes short runs passable: the chapter's source
/// is e⁻²⁵ ≈ 1e-11 V at step 8, far below half's smallest subnormal, so half storage holds zero
/// for the whole field and the relative error is 1; a field within the floor cannot tell a right
/// result from a wrong one (compare.hpp, below_floor). Measured on the chapter's box of 19 x 7 x 5
/// from rest: 7.0e-7 after 24 steps against 4.8e-7 + 4.0e-5; from random pulses of 1e-7 V (every
/// pulse subnormal), 0.22 to 0.23 of the bound at any step count up to 2000, as a random walk
/// predicts (tests/test_half_storage.cpp).
struct Tolerance {
  double relative = 0;  ///< t: times the reference's size (2-norm, max-norm, largest √E of the run)
  double absolute = 0;  ///< the floor in volts, added to it (0 for FP32)
};
Tolerance tolerance(Storage storage, int steps, const Mesh& mesh);
/// The relative part alone (tolerance(storage, steps, mesh).relative): for comparing two runs of
/// pulses far above the floor, such as a half-storage run against an FP32 one from random pulses.
double tolerance(Storage storage, int steps);

}  // namespace gpgpu::tlm
