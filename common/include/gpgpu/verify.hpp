/// @file verify.hpp
/// @brief Comparing a chapter's single-precision result with the double-precision reference.
///
/// Two norms are checked: the relative 2-norm ‖x − r‖₂/‖r‖₂ (the error of the whole field) and the
/// relative max-norm max|x − r| / max|r| (so that one wrong element among millions cannot hide in
/// the 2-norm). Any NaN or infinity fails, so outputs poisoned with NaN before a run expose every
/// element a kernel did not write.
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace gpgpu {

/// Outcome of one comparison.
struct Verification {
  double rel_l2 = 0;            ///< ‖x − r‖₂ / ‖r‖₂
  double rel_max = 0;           ///< max|x − r| / max|r|
  std::int64_t worst_index = -1;  ///< index of the largest |x − r| (or of the first non-finite value)
  std::int64_t non_finite = 0;  ///< number of NaN / infinite values in x
  double tolerance = 0;         ///< both relative errors must be at most this
  bool checked = false;         ///< false when verification was skipped (--no-verify)
  bool pass = false;
  /// "PASS", "FAIL" or "skipped".
  [[nodiscard]] std::string verdict() const;
  /// One line such as "PASS rel. error 3.1e-07 (max 5.2e-07) <= 1.2e-04".
  [[nodiscard]] std::string summary() const;
};

/// Tolerance for `iters` single-precision weighted Jacobi iterations against the double reference.
/// Each iteration adds the rounding of about 20 float operations, a few units of the unit roundoff
/// u = 2⁻²⁴ ≈ 6e-8 relative to ‖x‖, and the iteration does not amplify earlier errors (its
/// spectral radius is below 1 for a valid ω), so the error grows at most linearly:
/// tolerance = 4u (iters + 16), 2.4e-4 at 1000 iterations. Measured errors follow u·√iters
/// (about 1e-6 at 1000 iterations, with or without fused multiply-adds), two orders of magnitude
/// below; a wrong stencil coefficient, index or missed element is orders of magnitude above.
double jacobi_tolerance(int iters);

/// Compares `got` with `ref` elementwise (same length) in both norms.
Verification verify_solution(std::span<const float> got, std::span<const double> ref, double tolerance);

}  // namespace gpgpu
