/// @file pitched_upload.hpp
/// @brief Exercise 05: chapter 05's pitched layout by hand. Unknown (i, j) of an nx × ny grid lives
/// at byte (j + kGhostRows) * pitch + 4 i of the allocation, where the pitch (bytes per row, at
/// least 4 nx) is the one the CUDA runtime chooses for rows of nx floats; the kGhostRows rows above
/// and below and the padding at the end of every row are zero.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "gpgpu/jacobi/layouts.hpp"

namespace ex05 {

/// Chapter 05's ghost rows above and below the grid (the layout of the CUDA and OpenCL chapters).
inline constexpr int kGhostRows = gpgpu::jacobi::kPitchedGhostRows;

/// One pitched float field on the device (not owning: free_pitched releases it).
struct PitchedField {
  float* base = nullptr;        ///< start of the allocation (row -kGhostRows)
  std::size_t pitch_bytes = 0;  ///< bytes from one row to the next, as cudaMallocPitch chose it
  int nx = 0;
  int ny = 0;
};

/// Allocates ny + 2*kGhostRows rows of nx floats, each row starting at an address the runtime
/// aligns for the device, every byte zero, and `values` (nx*ny, row by row) in rows
/// kGhostRows .. kGhostRows+ny-1.
PitchedField upload_pitched(std::span<const float> values, int nx, int ny);

/// Copies the nx*ny unknowns back, row by row, without the ghost rows and the padding.
std::vector<float> download_pitched(const PitchedField& field);

/// Frees the allocation (base may be nullptr) and resets the field.
void free_pitched(PitchedField& field);

}  // namespace ex05
