/// @file pitched_fields.hpp
/// @brief Test and exercise support: chapter 05's pitched layout on the device (ghost rows above and
/// below, zero padding), and NaN poisoning of its unknowns only.
#pragma once
#include <cstddef>
#include <span>

#include "gpgpu/cuda/buffers.hpp"

namespace gpgpu::cuda_check {

/// A pitched device array of nx*ny values (row by row) with `ghost_rows` zero rows above and below
/// and zero padding at the end of every row.
inline cuda::PitchedBuffer<float> pitched_field(std::span<const float> values, std::size_t nx, std::size_t ny,
                                                std::size_t ghost_rows) {
  cuda::PitchedBuffer<float> b(nx, ny + 2 * ghost_rows);
  b.fill_bytes(0);
  b.upload_rows(values, nx, ny, ghost_rows);
  return b;
}

/// Sets the nx*ny unknowns to NaN and leaves ghosts and padding alone: an output element that a
/// kernel does not write stays NaN, while the zero ghosts stay valid inputs.
inline void poison_unknowns(cuda::PitchedBuffer<float>& b, std::size_t nx, std::size_t ny, std::size_t ghost_rows) {
  GPGPU_CUDA_CHECK(cudaMemset2D(b.get() + ghost_rows * b.pitch(), b.pitch_bytes(), 0xFF, nx * sizeof(float), ny));
}

}  // namespace gpgpu::cuda_check
