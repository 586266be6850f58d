#include "parts.hpp"

#include <stdexcept>

#include "gpgpu/errors.hpp"
#include "scaling_chapter.hpp"

namespace ch13 {

using gpgpu::jacobi::Dir;
using gpgpu::jacobi::idx;

std::vector<std::span<const float>> system_arrays(PartKind kind, const gpgpu::jacobi::LinearSystem& sys) {
  const auto diag = [&](Dir d) { return std::span<const float>(sys.A.diag[static_cast<std::size_t>(idx(d))]); };
  std::vector<std::span<const float>> arrays;
  if (kind == PartKind::mpi_cpu) {
    for (std::size_t d = 0; d < 9; ++d) arrays.emplace_back(sys.A.diag[d]);
  } else {
    for (Dir d : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE}) arrays.push_back(diag(d));
  }
  arrays.emplace_back(sys.rhs);
  return arrays;
}

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
