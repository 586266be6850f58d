// Chapter 05's host code, in the order a run uses it: the variants that run on it (chapter 05's and
// chapter 06's), allocate the pitched arrays and upload (untimed), reset the iterates, iterate
// (chapter 03's loop, timed by CUDA events; one 2D launch per iteration), download.
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"

#include <memory>
#include <stdexcept>
#include <utility>

#include "jacobi/cuda/launchers.hpp"

namespace gpgpu::jacobi::cuda {

using gpgpu::cuda::PitchedBuffer;

//! [pitched]
Variant pitched_variant(const LaunchOptions& launch) {
  Variant v = cuda_variant("pitched", "cudaMallocPitch, 2D grid of 1D blocks, 2 ghost rows",
                           "kernels/jacobi/cuda/05_pitched.cu", "CUDA 2D");
  v.make = [&launch](const LinearSystem& sys, Session&) {
    return std::make_unique<PitchedSolver>(sys, launch.block_or(64), launch_jacobi_pitched);
  };
  v.check_fits = fits_pitched("pitched");
  return v;
}
//! [pitched]

//! [shared]
Variant shared_variant(const LaunchOptions& launch) {
  Variant v = cuda_variant("shared", "pitched, x rows j-1..j+1 staged in shared memory",
                           "kernels/jacobi/cuda/06_01_shared.cu", "CUDA Shared");
  v.make = [&launch](const LinearSystem& sys, Session&) {
    return std::make_unique<PitchedSolver>(sys, launch.block_or(64), launch_jacobi_shared);
  };
  v.check_fits = fits_pitched("shared");
  return v;
}

Variant shared_paper_variant(const LaunchOptions& launch) {
  Variant v = cuda_variant(
      "shared_paper", "pitched, x rows staged in shared memory as the paper loads them: own column, halo by the end threads",
      "kernels/jacobi/cuda/06_02_shared_paper.cu", "CUDA Shared");
  v.make = [&launch](const LinearSystem& sys, Session&) {
    return std::make_unique<PitchedSolver>(sys, launch.block_or(64), launch_jacobi_shared_paper);
  };
  v.check_fits = fits_pitched("shared_paper");
  return v;
}
//! [shared]

std::function<void(const Grid&, Session&)> fits_pitched(std::string variant, int stored) {
  return fits_device_memory(std::move(variant), [stored](const Grid& g) { return pitched_device_bytes(g, stored); });
}

PitchedSolver::PitchedSolver(const LinearSystem& sys, int block, Kernel kernel)
    : PitchedSolver(sys, kNineDiagonals) {
  check_block(block);
  block_ = block;
  kernel_ = kernel;
}

//! [allocate]
PitchedSolver::PitchedSolver(const LinearSystem& sys, std::span<const Dir> stored)
    : grid_(sys.grid) {
  const auto nx = static_cast<std::size_t>(grid_.nx), ny = static_cast<std::size_t>(grid_.ny);
  for (Dir d : stored)
    arrays_.push_back(gpgpu::cuda::pitched_with_ghost_rows<float>(sys.A.diag[static_cast<std::size_t>(idx(d))],
                                                                  nx, ny, kPitchedGhostRows));
  arrays_.push_back(gpgpu::cuda::pitched_with_ghost_rows<float>(sys.rhs, nx, ny, kPitchedGhostRows));
  // Zeros until reset() uploads a guess: a tuning run may iterate before it, and a kernel's float4
  // loads may touch the padding it then discards (compute-sanitizer's initcheck would flag the read).
  for (PitchedBuffer<float>& x : x_) {
    x = PitchedBuffer<float>(nx, ny + 2 * kPitchedGhostRows);
    x.fill_bytes(0);
  }
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

PitchedArgs PitchedSolver::args(int in, float omega) {
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
  s += std::to_string(blocks_for(grid_.nx, block_));
  s += " x ";
  s += std::to_string(grid_rows(grid_.ny));
  s += ", block ";
  s += std::to_string(block_);
  s += ", pitch ";
  s += std::to_string(pitch_);
  s += " floats";
  return s;
}

double pitched_device_bytes(const Grid& grid, int stored) {
  return (stored + 1.0 + 2.0) * 4.0 * (grid.nx + 128.0) * (grid.ny + 2.0 * kPitchedGhostRows);
}

}  // namespace cuda
