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

//! [e4m3_block_scale]
float e4m3_block_scale(float amax) {
  if (!(amax > 0)) return 1.0f;
  int e = 0;
  const float mantissa = std::frexp(amax, &e);  // amax = mantissa · 2^e, mantissa in [0.5, 1)
  // amax / 2^j <= 448 = 0.875 · 2^9 holds from j = e - 9 if mantissa <= 0.875, else from j = e - 8.
  const int j = std::max(mantissa <= 0.875f ? e - 9 : e - 8, -126);
  return std::ldexp(1.0f, j);
}
//! [e4m3_block_scale]

HostMatrix dequantised_e4m3_blocks(const HostMatrix& floats, std::int64_t block_rows, std::int64_t block_cols) {
  if (floats.type() != ElementType::f32) throw std::invalid_argument("dequantised_e4m3_blocks: FP8 inputs are quantised from floats");
  if (block_rows < 1 || block_cols < 1) throw std::invalid_argument("dequantised_e4m3_blocks: empty blocks");
  const std::span<const float> x = floats.as<float>();
  const std::int64_t rows = floats.shape().rows, cols = floats.shape().cols;
  std::vector<double> out(x.size());
  for (std::int64_t r0 = 0; r0 < rows; r0 += block_rows)
    for (std::int64_t c0 = 0; c0 < cols; c0 += block_cols) {
      const std::int64_t r1 = std::min(r0 + block_rows, rows), c1 = std::min(c0 + block_cols, cols);
      float largest = 0;
      for (std::int64_t r = r0; r < r1; ++r)
        for (std::int64_t c = c0; c < c1; ++c) largest = std::max(largest, std::fabs(x[static_cast<std::size_t>(r * cols + c)]));
      const float s = e4m3_block_scale(largest);
      for (std::int64_t r = r0; r < r1; ++r)
        for (std::int64_t c = c0; c < c1; ++c) {
          const auto i = static_cast<std::size_t>(r * cols + c);
          out[i] = static_cast<double>(round_to_e4m3(x[i] / s)) * static_cast<double>(s);
        }
    }
  return HostMatrix(floats.shape(), std::move(out));
}

Operands dequantised_e4m3_blocks(const Operands& floats) {
  return {dequantised_e4m3_blocks(floats.a, 1, kFp8BlockK), dequantised_e4m3_blocks(floats.b, kFp8BlockK, kFp8BlockK)};
}

Operands dequantised_inputs(Arithmetic arithmetic, const Operands& floats) {
  if (!judged_on_dequantised_inputs(arithmetic)) throw std::invalid_argument("dequantised_inputs: not an FP8 arithmetic");
  return block_scaled(arithmetic) ? dequantised_e4m3_blocks(floats) : dequantised_e4m3(floats);
}

}  // namespace gpgpu::blas
