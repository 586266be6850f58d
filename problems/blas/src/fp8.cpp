#include "gpgpu/blas/fp8.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace gpgpu::blas {

//! [round_to_e4m3]
float round_to_e4m3(float x) {
  if (std::isnan(x)) return x;
  const float magnitude = std::fabs(x);
  if (magnitude >= kE4m3Max) return std::copysign(kE4m3Max, x);  // satfinite; 448 is the largest value
  // The spacing of E4M3 values near |x|: 2^(e - 3) for |x| in [2^e, 2^(e+1)), and 2^-9 for every
  // |x| below 2^-6 (the subnormals share the smallest normal binade's spacing).
  const int e = std::max(std::ilogb(magnitude), -6);
  const float spacing = std::ldexp(1.0f, e - 3);
  // x / spacing and back are exact (powers of two, far from float's limits); nearbyint rounds to
  // nearest even in the default rounding mode. A value that rounds up to 2^(e+1) is still on the grid.
  return std::nearbyint(x / spacing) * spacing;
}
//! [round_to_e4m3]

float e4m3_scale(float amax) { return amax > 0 ? amax / kE4m3Max : 1.0f; }

float amax(std::span<const float> values) {
  float m = 0;
  for (float v : values) m = std::max(m, std::fabs(v));
  return m;
}

HostMatrix dequantised_e4m3(const HostMatrix& floats) {
  if (floats.type() != ElementType::f32) throw std::invalid_argument("dequantised_e4m3: FP8 inputs are quantised from floats");
  const std::span<const float> x = floats.as<float>();
  const float s = e4m3_scale(amax(x));
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = static_cast<double>(round_to_e4m3(x[i] / s)) * static_cast<double>(s);
  return HostMatrix(floats.shape(), std::move(out));
}

Operands dequantised_e4m3(const Operands& floats) { return {dequantised_e4m3(floats.a), dequantised_e4m3(floats.b)}; }

}  // namespace gpgpu::blas
