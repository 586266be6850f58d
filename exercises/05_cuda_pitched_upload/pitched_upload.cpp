// Exercise 05 skeleton: fill in the three functions marked TODO(exercise) with the CUDA runtime's
// pitched-memory calls, each wrapped in GPGPU_CUDA_CHECK. The check fails until they are right.
#include "pitched_upload.hpp"

#include <cuda_runtime_api.h>

#include "gpgpu/cuda/check.hpp"

namespace ex05 {

PitchedField upload_pitched(std::span<const float> values, int nx, int ny) {
  PitchedField field;
  field.nx = nx;
  field.ny = ny;
  (void)values;
  // TODO(exercise): cudaMallocPitch for ny + 2*kGhostRows rows of nx floats (it returns the
  // pitch), cudaMemset2D every byte of every row to 0, then cudaMemcpy2D the nx x ny block from
  // the host (its pitch is nx * sizeof(float)) to the row kGhostRows of the allocation.
  return field;
}

std::vector<float> download_pitched(const PitchedField& field) {
  std::vector<float> values(static_cast<std::size_t>(field.nx) * static_cast<std::size_t>(field.ny));
  // TODO(exercise): cudaMemcpy2D the nx x ny block from row kGhostRows back into `values`.
  return values;
}

void free_pitched(PitchedField& field) {
  // TODO(exercise): cudaFree the allocation when there is one.
  field = {};
}

}  // namespace ex05
