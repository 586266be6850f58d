// Chapter 03's host code, in the order a run uses it: allocate and upload (untimed), reset the
// iterates, iterate (timed by CUDA events), download.
#include "linear_solver.hpp"

#include <cstdint>

#include "cuda_chapter.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "jacobi/cuda/launchers.hpp"

namespace ch03 {

namespace jc = gpgpu::jacobi::cuda;
using gpgpu::cuda::DeviceBuffer;

//! [iterate]
double PingPongSolver::iterate(int iters, float omega) {
  timer_.start();
  for (int it = 0; it < iters; ++it) {
    step(current_, omega);
    current_ ^= 1;  // the output becomes the next input: swap roles, not data
  }
  timer_.stop();
  return timer_.seconds();
}
//! [iterate]

//! [upload]
LinearSolver::LinearSolver(const gpgpu::jacobi::LinearSystem& sys, std::int64_t offset, int block, Kernel kernel,
                           std::size_t base_alignment)
    : grid_(sys.grid), offset_(offset), block_(block), kernel_(kernel),
      // Same padded length as the host layout; a multiple of 32 floats keeps a texture's size tidy.
      padded_floats_(static_cast<std::size_t>(gpgpu::jacobi::ghost_padded_length(grid_, offset_, 32))) {
  check_block(block_);
  const auto n = static_cast<std::size_t>(grid_.nodes());
  for (std::size_t d = 0; d < 9; ++d) {
    diag_[d] = DeviceBuffer<float>(n);
    diag_[d].upload(sys.A.diag[d]);
  }
  f_ = DeviceBuffer<float>(n);
  f_.upload(sys.rhs);
  // cudaMalloc promises 256-B alignment; a texture's base must be a multiple of textureAlignment
  // (512 B on the H100): allocate a little more and start at the next multiple.
  for (std::size_t b = 0; b < 2; ++b) {
    x_[b] = DeviceBuffer<float>(padded_floats_ + base_alignment / sizeof(float));
    x_[b].fill_bytes(0);
    const auto address = reinterpret_cast<std::uintptr_t>(x_[b].get());
    start_[b] = x_[b].get() + ((base_alignment - address % base_alignment) % base_alignment) / sizeof(float);
  }
}
//! [upload]

//! [reset]
void LinearSolver::reset(std::span<const float> x0) {
  const gpgpu::jacobi::GhostPadded<float> host = gpgpu::jacobi::make_ghost_padded<float>(grid_, x0, offset_, 32);
  GPGPU_CUDA_CHECK(cudaMemcpy(start_[0], host.data.data(), host.data.size() * sizeof(float), cudaMemcpyHostToDevice));
  // The other iterate: ghosts zero (0 times a ghost is only 0 if the ghost is finite), unknowns NaN,
  // so an unknown the kernel fails to write shows up in the result.
  x_[1].fill_bytes(0);
  GPGPU_CUDA_CHECK(cudaMemset(start_[1] + offset_, 0xFF, static_cast<std::size_t>(grid_.nodes()) * sizeof(float)));
  current_ = 0;
}
//! [reset]

jc::LinearArgs LinearSolver::args(int in, float omega) const {
  const jc::Diagonals A{diag_[0].get(), diag_[1].get(), diag_[2].get(), diag_[3].get(), diag_[4].get(),
                        diag_[5].get(), diag_[6].get(), diag_[7].get(), diag_[8].get()};
  return {A,        f_.get(), start_[static_cast<std::size_t>(in)], start_[static_cast<std::size_t>(1 - in)],
          grid_.nx, static_cast<int>(grid_.nodes()), static_cast<int>(offset_), omega};
}

void LinearSolver::step(int in, float omega) { kernel_(args(in, omega), block_, nullptr); }

std::vector<float> LinearSolver::solution() {
  std::vector<float> x(static_cast<std::size_t>(grid_.nodes()));
  GPGPU_CUDA_CHECK(cudaMemcpy(x.data(), start_[static_cast<std::size_t>(current_)] + offset_, x.size() * sizeof(float),
                              cudaMemcpyDeviceToHost));
  return x;
}

std::string LinearSolver::launch() const {
  return "grid " + std::to_string(jc::blocks_for(grid_.nodes(), block_)) + ", block " + std::to_string(block_) +
         ", ghost offset " + std::to_string(offset_);
}

std::size_t linear_padded_floats(const gpgpu::jacobi::Grid& grid) {
  return static_cast<std::size_t>(
      gpgpu::jacobi::ghost_padded_length(grid, gpgpu::jacobi::aligned_offset(grid, 32), 32));
}

double linear_device_bytes(const gpgpu::jacobi::Grid& grid) {
  // Nine diagonals and f, two padded iterates with up to 1 KiB of alignment slack each.
  return 4.0 * (10.0 * static_cast<double>(grid.nodes()) + 2.0 * static_cast<double>(linear_padded_floats(grid) + 256));
}

}  // namespace ch03
