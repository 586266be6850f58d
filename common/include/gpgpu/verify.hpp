/// @file verify.hpp
/// @brief Comparing a variant's result with the CPU reference, with the tolerance the problem
/// derives from its error analysis.
///
/// Normwise: the relative 2-norm ‖x − r‖₂/‖r‖₂ (the error of the whole field) and the relative
/// max-norm max|x − r| / max|r| (so that one wrong element among millions cannot hide in the
/// 2-norm), both at most the tolerance. Exact: every element equal (a copy, an add of integers, a
/// transpose has no rounding to excuse). Any NaN or infinity fails either way, so outputs poisoned
/// with NaN before a run expose every element a kernel did not write.
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace gpgpu {

/// Outcome of one comparison.
struct Verification {
  double rel_l2 = 0;              ///< ‖x − r‖₂ / ‖r‖₂ (0 for an exact match)
  double rel_max = 0;             ///< max|x − r| / max|r|
  std::int64_t worst_index = -1;  ///< index of the largest |x − r| (or of the first non-finite or unequal value)
  std::int64_t non_finite = 0;    ///< NaN / infinite values in x
  std::int64_t mismatches = 0;    ///< exact comparisons: elements that differ
  double tolerance = 0;           ///< both relative errors must be at most this (0: exact)
  bool exact = false;             ///< compared element by element for equality
  bool checked = false;           ///< false when verification was skipped (--no-verify)
  bool pass = false;
  /// What was compared, in the problem's words, where the relative errors against `tolerance` do
  /// not say it (chapter 11's half storage on a field within its absolute floor: "abs. error
  /// 4.1e-12 V <= 2.4e-05 V allowed (...)"); summary() then prints it after the verdict.
  std::string basis{};
  /// "PASS", "FAIL" or "skipped".
  [[nodiscard]] std::string verdict() const;
  /// One line such as "PASS: rel. error 3.1e-07 (max-norm 5.2e-07 at index 17) <= tolerance 1.2e-04",
  /// or "PASS: " and the basis where there is one.
  [[nodiscard]] std::string summary() const;
};

/// A verification that did not happen (--no-verify).
[[nodiscard]] Verification not_verified();

/// Compares `got` with `ref` (same length) in both norms against `tolerance`.
Verification compare_normwise(std::span<const float> got, std::span<const double> ref, double tolerance);
Verification compare_normwise(std::span<const double> got, std::span<const double> ref, double tolerance);

/// Compares element by element for bitwise-equal values (NaN never equals anything).
Verification compare_exact(std::span<const float> got, std::span<const float> ref);
Verification compare_exact(std::span<const double> got, std::span<const double> ref);
Verification compare_exact(std::span<const std::int32_t> got, std::span<const std::int32_t> ref);

/// Combines the checks of one result (a field and a physics check, say): passes when all pass;
/// the numbers are those of the worst (first failing) part.
[[nodiscard]] Verification all_of(std::span<const Verification> parts);

}  // namespace gpgpu
