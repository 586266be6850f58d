// Exercise 05, a shortcut the check must catch (its grading test proves it fails): no layout of its
// own, but the project's (gpgpu::cuda::pitched_with_ghost_rows in common/cuda), kept alive in a map
// until free_pitched, wherever the include path reaches it. The student's file is compiled against
// the exercise's interface, the Jacobi problem's headers and a copy of gpgpu/cuda/check.hpp alone, so
// here the library's header is not found and what is left is the skeleton's empty answer; were it
// found, this would pass.
#include "pitched_upload.hpp"

#include <cuda_runtime_api.h>

#include "gpgpu/cuda/check.hpp"

#if __has_include("gpgpu/cuda/buffers.hpp")
#include <map>
#include <utility>

#include "gpgpu/cuda/buffers.hpp"
#define EX05_THE_LIBRARY 1
#endif

namespace ex05 {

#ifdef EX05_THE_LIBRARY
namespace {
std::map<float*, gpgpu::cuda::PitchedBuffer<float>>& owned() {
  static std::map<float*, gpgpu::cuda::PitchedBuffer<float>> buffers;
  return buffers;
}
}  // namespace
#endif

PitchedField upload_pitched(std::span<const float> values, int nx, int ny) {
  PitchedField field;
  field.nx = nx;
  field.ny = ny;
#ifdef EX05_THE_LIBRARY
  auto b = gpgpu::cuda::pitched_with_ghost_rows<float>(values, static_cast<std::size_t>(nx), static_cast<std::size_t>(ny),
                                                       kGhostRows);
  field.base = b.get();
  field.pitch_bytes = b.pitch_bytes();
  owned().emplace(field.base, std::move(b));
#else
  (void)values;
#endif
  return field;
}

std::vector<float> download_pitched(const PitchedField& field) {
  std::vector<float> values(static_cast<std::size_t>(field.nx) * static_cast<std::size_t>(field.ny));
#ifdef EX05_THE_LIBRARY
  values = owned().at(field.base).download_rows(static_cast<std::size_t>(field.nx), static_cast<std::size_t>(field.ny),
                                                kGhostRows);
#endif
  return values;
}

void free_pitched(PitchedField& field) {
#ifdef EX05_THE_LIBRARY
  owned().erase(field.base);
#endif
  field = {};
}

}  // namespace ex05
