// Exercise 05, a shortcut the check must reject: the worked answer without its cudaMemset2D. The
// unknowns land in their places, but the ghost rows and every row's padding hold whatever the
// allocation held: zero only when the runtime hands out fresh memory.
#include "pitched_upload.hpp"

#include <cuda_runtime_api.h>

#include "gpgpu/cuda/check.hpp"

namespace ex05 {

PitchedField upload_pitched(std::span<const float> values, int nx, int ny) {
  PitchedField field;
  field.nx = nx;
  field.ny = ny;
  const std::size_t row_bytes = static_cast<std::size_t>(nx) * sizeof(float);
  const std::size_t rows = static_cast<std::size_t>(ny) + 2 * kGhostRows;
  void* base = nullptr;
  GPGPU_CUDA_CHECK(cudaMallocPitch(&base, &field.pitch_bytes, row_bytes, rows));
  field.base = static_cast<float*>(base);
  char* first_row = static_cast<char*>(base) + kGhostRows * field.pitch_bytes;
  GPGPU_CUDA_CHECK(cudaMemcpy2D(first_row, field.pitch_bytes, values.data(), row_bytes, row_bytes,
                                static_cast<std::size_t>(ny), cudaMemcpyHostToDevice));
  return field;
}

std::vector<float> download_pitched(const PitchedField& field) {
  const std::size_t row_bytes = static_cast<std::size_t>(field.nx) * sizeof(float);
  std::vector<float> values(static_cast<std::size_t>(field.nx) * static_cast<std::size_t>(field.ny));
  const char* first_row = reinterpret_cast<const char*>(field.base) + kGhostRows * field.pitch_bytes;
  GPGPU_CUDA_CHECK(cudaMemcpy2D(values.data(), row_bytes, first_row, field.pitch_bytes, row_bytes,
                                static_cast<std::size_t>(field.ny), cudaMemcpyDeviceToHost));
  return values;
}

void free_pitched(PitchedField& field) {
  if (field.base != nullptr) GPGPU_CUDA_CHECK(cudaFree(field.base));
  field = {};
}

}  // namespace ex05
