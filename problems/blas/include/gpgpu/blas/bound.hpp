/// @file bound.hpp
/// @brief The element-by-element error test every routine of problems/blas is judged by: a computed
/// value x̂ passes when it is finite and |x̂ - x| <= γ s, with x the FP64 reference and s the sum of
/// the magnitudes of the terms that make x (|A||B| for a product, |α||x| + |y| for an axpy).
/// γ_n = n u / (1 - n u) for n rounding steps of unit roundoff u (Higham, "Accuracy and Stability
/// of Numerical Algorithms", 2nd ed., Lemma 3.1).
#pragma once
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "gpgpu/verify.hpp"

namespace gpgpu::blas {

/// γ_n for unit roundoff u; throws when n u >= 1/2 (no meaningful bound).
inline double gamma_n(std::int64_t n, double u) {
  const double nu = static_cast<double>(n) * u;
  if (nu >= 0.5) throw std::invalid_argument("error bound: n u >= 1/2, no meaningful bound");
  return nu / (1 - nu);
}

/// `got` against `value` within `gamma` * scale_at(i), element by element. The Verification reads:
/// rel_l2 = ‖got - value‖₂ / ‖value‖₂; rel_max = the worst |got - value| / scale (the measure the
/// bound is stated in); tolerance = gamma; worst_index = where rel_max is (or the first non-finite).
template <typename T, typename ScaleAt>
Verification compare_scaled(std::span<const T> got, std::span<const double> value, ScaleAt scale_at, double gamma) {
  if (got.size() != value.size())
    throw std::invalid_argument("compare_within: " + std::to_string(got.size()) + " values for a reference of " +
                                std::to_string(value.size()));
  Verification v;
  v.checked = true;
  v.tolerance = gamma;
  double err2 = 0, ref2 = 0, worst = -1;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double xi = static_cast<double>(got[i]);
    if (!std::isfinite(xi)) {
      if (v.non_finite++ == 0) v.worst_index = static_cast<std::int64_t>(i);
      continue;
    }
    const double e = std::fabs(xi - value[i]), scale = scale_at(i);
    err2 += e * e;
    ref2 += value[i] * value[i];
    // The scale is 0 only where every term is 0: then the result must be exactly 0.
    const double ratio = scale > 0 ? e / scale : (e == 0 ? 0.0 : INFINITY);
    if (ratio > gamma) ++v.mismatches;
    if (ratio > worst && v.non_finite == 0) {
      worst = ratio;
      v.worst_index = static_cast<std::int64_t>(i);
    }
  }
  v.rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  v.rel_max = worst < 0 ? 0 : worst;
  v.pass = v.non_finite == 0 && v.mismatches == 0;
  return v;
}

/// compare_scaled with the scale of every element given: `got` against `value` within `gamma` * `scale`.
template <typename T>
Verification compare_within(std::span<const T> got, std::span<const double> value, std::span<const double> scale, double gamma) {
  if (value.size() != scale.size())
    throw std::invalid_argument("compare_within: " + std::to_string(scale.size()) + " scales for a reference of " +
                                std::to_string(value.size()));
  return compare_scaled(got, value, [scale](std::size_t i) { return scale[i]; }, gamma);
}

}  // namespace gpgpu::blas
