#include "gpgpu/verify.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace gpgpu {

std::string Verification::verdict() const {
  if (!checked) return "skipped";
  return pass ? "PASS" : "FAIL";
}

std::string Verification::summary() const {
  if (!checked) return "skipped (--no-verify)";
  char buf[200];
  if (non_finite > 0) {
    std::snprintf(buf, sizeof buf, "%s: %lld non-finite values (first at index %lld)", verdict().c_str(),
                  static_cast<long long>(non_finite), static_cast<long long>(worst_index));
  } else {
    std::snprintf(buf, sizeof buf, "%s: rel. error %.2e (max-norm %.2e at index %lld) %s tolerance %.1e",
                  verdict().c_str(), rel_l2, rel_max, static_cast<long long>(worst_index), pass ? "<=" : ">",
                  tolerance);
  }
  return buf;
}

double jacobi_tolerance(int iters) {
  constexpr double eps = std::numeric_limits<float>::epsilon() / 2;  // unit roundoff 2^-24
  return 4.0 * eps * (static_cast<double>(iters) + 16.0);
}

Verification verify_solution(std::span<const float> got, std::span<const double> ref, double tolerance) {
  if (got.size() != ref.size()) throw std::invalid_argument("verify_solution: sizes differ");
  Verification v;
  v.checked = true;
  v.tolerance = tolerance;
  double diff2 = 0.0, ref2 = 0.0, diff_max = 0.0, ref_max = 0.0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const double x = got[k];
    if (!std::isfinite(x)) {
      if (v.non_finite++ == 0) v.worst_index = static_cast<std::int64_t>(k);
      continue;
    }
    const double d = std::abs(x - ref[k]);
    diff2 += d * d;
    ref2 += ref[k] * ref[k];
    ref_max = std::max(ref_max, std::abs(ref[k]));
    if (d > diff_max && v.non_finite == 0) {
      diff_max = d;
      v.worst_index = static_cast<std::int64_t>(k);
    }
  }
  // A zero reference (possible only for a zero right-hand side) is compared absolutely.
  v.rel_l2 = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  v.rel_max = ref_max > 0 ? diff_max / ref_max : diff_max;
  v.pass = v.non_finite == 0 && v.rel_l2 <= tolerance && v.rel_max <= tolerance;
  if (v.non_finite > 0) v.rel_l2 = v.rel_max = std::numeric_limits<double>::quiet_NaN();
  return v;
}

}  // namespace gpgpu
