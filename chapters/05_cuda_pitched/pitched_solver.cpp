// Chapter 05's host code, in the order a run uses it: allocate the pitched arrays and upload
// (untimed), reset the iterates, iterate (chapter 03's loop, timed by CUDA events), download.
#include "pitched_solver.hpp"

#include <stdexcept>

#include "cuda_chapter.hpp"
#include "jacobi/cuda/launchers.hpp"

namespace ch05 {

namespace jc = gpgpu::jacobi::cuda;
using gpgpu::cuda::PitchedBuffer;
using gpgpu::jacobi::kPitchedGhostRows;

PitchedSolver::PitchedSolver(const gpgpu::jacobi::LinearSystem& sys, int block, Kernel kernel)
    : PitchedSolver(sys, kNineDiagonals) {
  ch03::check_block(block);
  block_ = block;
  kernel_ = kernel;
}

//! [allocate]
PitchedSolver::PitchedSolver(const gpgpu::jacobi::LinearSystem& sys, std::span<const gpgpu::jacobi::Dir> stored)
    : grid_(sys.grid) {
  const auto nx = static_cast<std::size_t>(grid_.nx), ny = static_cast<std::size_t>(grid_.ny);
  for (gpgpu::jacobi::Dir d : stored)
    arrays_.push_back(gpgpu::cuda::pitched_with_ghost_rows<float>(sys.A.diag[static_cast<std::size_t>(gpgpu::jacobi::idx(d))],
                                                                  nx, ny, kPitchedGhostRows));
  arrays_.push_back(gpgpu::cuda::pitched_with_ghost_rows<float>(sys.rhs, nx, ny, kPitchedGhostRows));
  for (PitchedBuffer<float>& x : x_) x = PitchedBuffer<float>(nx, ny + 2 * kPitchedGhostRows);
  // One index k = j*pitch + i must address every array: cudaMallocPitch gives arrays of one width
  // one pitch, and the float4 kernels of chapter 07b need it to be a multiple of 16 bytes.
  pitch_ = x_[0].pitch();
  for (const PitchedBuffer<float>& a : arrays_)
    if (a.pitch() != pitch_) throw std::logic_error("cudaMallocPitch gave arrays of one width different pitches");
  if (pitch_ % 4 != 0) throw std::logic_error("pitch is not a multiple of 16 bytes: the float4 kernels need it");
}
//! [allocate]

void PitchedSolver::reset(std::span<const float> x0) {
  const auto nx = static_cast<std::size_t>(grid_.nx), ny = static_cast<std::size_t>(grid_.ny);
  x_[0].fill_bytes(0);
  x_[0].upload_rows(x0, nx, ny, kPitchedGhostRows);
  // The other iterate: ghost rows and padding zero, the unknowns NaN (an unknown the kernel fails to
  // write shows up in the result).
  x_[1].fill_bytes(0);
  x_[1].fill_block_bytes(0xFF, nx, ny, kPitchedGhostRows);
  current_ = 0;
}

jc::PitchedArgs PitchedSolver::args(int in, float omega) {
  const auto a = [&](std::size_t i) { return array(i); };
  return {{a(0), a(1), a(2), a(3), a(4), a(5), a(6), a(7), a(8)}, a(9), x(in), x(1 - in), grid_.nx, grid_.ny, pitch(),
          omega};
}

void PitchedSolver::step(int in, float omega) { kernel_(args(in, omega), block_, nullptr); }

std::vector<float> PitchedSolver::solution() {
  return x_[static_cast<std::size_t>(current_)].download_rows(static_cast<std::size_t>(grid_.nx),
                                                              static_cast<std::size_t>(grid_.ny), kPitchedGhostRows);
}

std::string PitchedSolver::launch() const {
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on chains of "literal" + std::string.
  std::string s = "grid ";
  s += std::to_string(jc::blocks_for(grid_.nx, block_));
  s += " x ";
  s += std::to_string(jc::grid_rows(grid_.ny));
  s += ", block ";
  s += std::to_string(block_);
  s += ", pitch ";
  s += std::to_string(pitch_);
  s += " floats";
  return s;
}

double pitched_device_bytes(const gpgpu::jacobi::Grid& grid, int stored) {
  return (stored + 1.0 + 2.0) * 4.0 * (grid.nx + 128.0) * (grid.ny + 2.0 * kPitchedGhostRows);
}

}  // namespace ch05
