#include "gpgpu/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace gpgpu {

std::string Verification::verdict() const {
  if (!checked) return "skipped";
  return pass ? "PASS" : "FAIL";
}

std::string Verification::summary() const {
  if (!checked) return "skipped (--no-verify)";
  char buf[240];
  if (non_finite > 0) {
    std::snprintf(buf, sizeof buf, "%s: %lld non-finite values (first at index %lld)", verdict().c_str(),
                  static_cast<long long>(non_finite), static_cast<long long>(worst_index));
  } else if (!basis.empty()) {
    return verdict() + ": " + basis;
  } else if (exact) {
    if (mismatches == 0)
      std::snprintf(buf, sizeof buf, "%s: every element equal to the reference", verdict().c_str());
    else
      std::snprintf(buf, sizeof buf, "%s: %lld elements differ (first at index %lld; max-norm error %.2e)",
                    verdict().c_str(), static_cast<long long>(mismatches), static_cast<long long>(worst_index),
                    rel_max);
  } else {
    std::snprintf(buf, sizeof buf, "%s: rel. error %.2e (max-norm %.2e at index %lld) %s tolerance %.1e",
                  verdict().c_str(), rel_l2, rel_max, static_cast<long long>(worst_index), pass ? "<=" : ">",
                  tolerance);
  }
  return buf;
}

Verification not_verified() { return {}; }

namespace {

template <typename T>
Verification normwise(std::span<const T> got, std::span<const double> ref, double tolerance) {
  if (got.size() != ref.size()) throw std::invalid_argument("compare_normwise: sizes differ");
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
  // A zero reference is compared absolutely.
  v.rel_l2 = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  v.rel_max = ref_max > 0 ? diff_max / ref_max : diff_max;
  v.pass = v.non_finite == 0 && v.rel_l2 <= tolerance && v.rel_max <= tolerance;
  if (v.non_finite > 0) v.rel_l2 = v.rel_max = std::numeric_limits<double>::quiet_NaN();
  return v;
}

template <typename T>
bool is_finite(T x) {
  if constexpr (std::is_floating_point_v<T>) return std::isfinite(x);
  return true;
}

template <typename T>
Verification exactly(std::span<const T> got, std::span<const T> ref) {
  if (got.size() != ref.size()) throw std::invalid_argument("compare_exact: sizes differ");
  Verification v;
  v.checked = true;
  v.exact = true;
  double diff_max = 0.0, ref_max = 0.0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    ref_max = std::max(ref_max, std::abs(static_cast<double>(ref[k])));
    if (!is_finite(got[k])) {
      if (v.non_finite++ == 0 && v.mismatches == 0) v.worst_index = static_cast<std::int64_t>(k);
      continue;
    }
    // Bitwise, so that -0.0 for +0.0 and one NaN payload for another count as different too.
    if (std::memcmp(&got[k], &ref[k], sizeof(T)) != 0) {
      if (v.mismatches++ == 0 && v.non_finite == 0) v.worst_index = static_cast<std::int64_t>(k);
      diff_max = std::max(diff_max, std::abs(static_cast<double>(got[k]) - static_cast<double>(ref[k])));
    }
  }
  v.rel_max = ref_max > 0 ? diff_max / ref_max : diff_max;
  v.rel_l2 = v.rel_max;
  v.pass = v.non_finite == 0 && v.mismatches == 0;
  return v;
}

}  // namespace

Verification compare_normwise(std::span<const float> got, std::span<const double> ref, double tolerance) {
  return normwise(got, ref, tolerance);
}
Verification compare_normwise(std::span<const double> got, std::span<const double> ref, double tolerance) {
  return normwise(got, ref, tolerance);
}
Verification compare_exact(std::span<const float> got, std::span<const float> ref) { return exactly(got, ref); }
Verification compare_exact(std::span<const double> got, std::span<const double> ref) { return exactly(got, ref); }
Verification compare_exact(std::span<const std::int32_t> got, std::span<const std::int32_t> ref) {
  return exactly(got, ref);
}

Verification all_of(std::span<const Verification> parts) {
  if (parts.empty()) return not_verified();
  for (const Verification& p : parts)
    if (p.checked && !p.pass) return p;
  Verification worst = parts.front();
  for (const Verification& p : parts)
    if (p.rel_l2 > worst.rel_l2) worst = p;
  return worst;
}

}  // namespace gpgpu
