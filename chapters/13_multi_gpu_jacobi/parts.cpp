#include "parts.hpp"

#include <stdexcept>

#include "gpgpu/errors.hpp"
#include "scaling_chapter.hpp"

namespace ch13 {

using gpgpu::jacobi::Dir;
using gpgpu::jacobi::idx;

std::vector<std::span<const float>> symmetric_storage(const gpgpu::jacobi::LinearSystem& sys) {
  std::vector<std::span<const float>> arrays;
  for (Dir d : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE}) arrays.emplace_back(sys.A.diag[static_cast<std::size_t>(idx(d))]);
  arrays.emplace_back(sys.rhs);
  return arrays;
}

std::vector<std::span<const float>> system_arrays(PartKind kind, const gpgpu::jacobi::LinearSystem& sys) {
  if (on_gpu(kind)) return symmetric_storage(sys);
  std::vector<std::span<const float>> arrays(sys.A.diag.begin(), sys.A.diag.end());
  arrays.emplace_back(sys.rhs);
  return arrays;
}

std::size_t array_count(PartKind kind) { return on_gpu(kind) ? 6 : 10; }

int coefficient_ghost_rows(PartKind kind) { return kind == PartKind::mpi_cpu ? 0 : 2; }

bool on_gpu(PartKind kind) { return kind != PartKind::mpi_cpu; }

std::unique_ptr<Part> make_part(PartKind kind, const PartInputs& in, const MpiSession& mpi) {
  if (!on_gpu(kind)) return make_cpu_part(in);
  return make_gpu_part(kind, in, mpi);
}

}  // namespace ch13

#if !GPGPU_BUILT_CUDA
namespace ch13 {
// Built without CUDA: the GPU kinds' variants say why (main.cpp) and never get here.
std::unique_ptr<Part> make_gpu_part(PartKind, const PartInputs&, const MpiSession&) {
  throw std::logic_error("a GPU part was requested in a build without CUDA");
}
PeerLink measure_link_of_gpus_0_and_1(std::size_t) { return {}; }
}  // namespace ch13
#endif
