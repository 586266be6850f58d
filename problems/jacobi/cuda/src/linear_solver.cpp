// Chapter 03's host code, in the order a run uses it: the variants that run on it (chapter 03's
// and chapter 04's), allocate and upload (untimed), reset the iterates, iterate (timed by CUDA
// events: one launch of the variant's kernel per iteration, step()), download.
#include "gpgpu/jacobi/cuda/linear_solver.hpp"

#include <cstdint>
#include <memory>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "jacobi/cuda/launchers.hpp"

namespace gpgpu::jacobi::cuda {

using gpgpu::cuda::DeviceBuffer;

//! [simple]
Variant simple_variant(const LaunchOptions& launch) {
  Variant v = cuda_variant("simple", "9 diagonals, x with nx+1 ghosts, 1D grid", "kernels/jacobi/cuda/03_simple.cu",
                           "CUDA Simple");
  v.make = [&launch](const LinearSystem& sys, Session&) {
    return std::make_unique<LinearSolver>(sys, simple_offset(sys.grid), launch.block_or(64), launch_jacobi_simple);
  };
  v.check_fits = fits_device_memory("simple", linear_device_bytes);
  return v;
}
//! [simple]

//! [aligned]
namespace {

// Chapter 04's variants: the same host code with the ghost offset rounded up to `multiple` floats.
Variant aligned_to(int multiple, std::string name, std::string description, std::string paper_name,
                   const LaunchOptions& launch) {
  Variant v = cuda_variant(name, std::move(description), "kernels/jacobi/cuda/04_aligned.cu", std::move(paper_name));
  v.make = [&launch, multiple](const LinearSystem& sys, Session&) {
    return std::make_unique<LinearSolver>(sys, aligned_offset(sys.grid, multiple), launch.block_or(64),
                                          launch_jacobi_aligned);
  };
  v.check_fits = fits_device_memory(name, linear_device_bytes);
  return v;
}

}  // namespace

Variant aligned_variant(const LaunchOptions& launch) {
  return aligned_to(kPaperAlignment, "aligned",
                    "ghost offset a multiple of 16 floats (the paper's 64-B half-warp segment)", "CUDA Aligned",
                    launch);
}

Variant aligned32_variant(const LaunchOptions& launch) {
  return aligned_to(kLineAlignment, "aligned32", "ghost offset a multiple of 32 floats (today's 128-B line)", "",
                    launch);
}
//! [aligned]

//! [iterate]
double PingPongSolver::iterate(int iters, float omega) {
  timer_.start();
  for (int done = 0; done < iters;) done += advance(iters - done, omega);
  timer_.stop();
  return timer_.seconds();
}

int PingPongSolver::advance(int, float omega) {
  step(current_, omega);
  current_ ^= 1;  // the output becomes the next input: swap roles, not data
  return 1;
}
//! [iterate]

//! [upload]
LinearSolver::LinearSolver(const LinearSystem& sys, std::int64_t offset, int block, Kernel kernel,
                           std::size_t base_alignment)
    : grid_(sys.grid), offset_(offset), block_(block), kernel_(kernel),
      // Same padded length as the host layout; a multiple of 32 floats keeps a texture's size tidy.
      padded_floats_(static_cast<std::size_t>(ghost_padded_length(grid_, offset_, 32))) {
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
  const GhostPadded<float> host = make_ghost_padded<float>(grid_, x0, offset_, 32);
  GPGPU_CUDA_CHECK(cudaMemcpy(start_[0], host.data.data(), host.data.size() * sizeof(float), cudaMemcpyHostToDevice));
  // The other iterate: ghosts zero (0 times a ghost is only 0 if the ghost is finite), unknowns NaN,
  // so an unknown the kernel fails to write shows up in the result.
  x_[1].fill_bytes(0);
  GPGPU_CUDA_CHECK(cudaMemset(start_[1] + offset_, 0xFF, static_cast<std::size_t>(grid_.nodes()) * sizeof(float)));
  current_ = 0;
}
//! [reset]

LinearArgs LinearSolver::args(int in, float omega) const {
  const Diagonals A{diag_[0].get(), diag_[1].get(), diag_[2].get(), diag_[3].get(), diag_[4].get(),
                        diag_[5].get(), diag_[6].get(), diag_[7].get(), diag_[8].get()};
  return {A,        f_.get(), start_[static_cast<std::size_t>(in)], start_[static_cast<std::size_t>(1 - in)],
          grid_.nx, static_cast<int>(grid_.nodes()), static_cast<int>(offset_), omega};
}

//! [step]
// One iteration: the variant's kernel (launch_jacobi_simple, launch_jacobi_aligned), from iterate
// `in` into the other, on the default stream; no wait.
void LinearSolver::step(int in, float omega) { kernel_(args(in, omega), block_, nullptr); }
//! [step]

std::vector<float> LinearSolver::solution() {
  std::vector<float> x(static_cast<std::size_t>(grid_.nodes()));
  GPGPU_CUDA_CHECK(cudaMemcpy(x.data(), start_[static_cast<std::size_t>(current_)] + offset_, x.size() * sizeof(float),
                              cudaMemcpyDeviceToHost));
  return x;
}

std::string LinearSolver::launch() const {
  return "grid " + std::to_string(blocks_for(grid_.nodes(), block_)) + ", block " + std::to_string(block_) +
         ", ghost offset " + std::to_string(offset_);
}

std::size_t linear_padded_floats(const Grid& grid) {
  return static_cast<std::size_t>(
      ghost_padded_length(grid, aligned_offset(grid, 32), 32));
}

double linear_device_bytes(const Grid& grid) {
  // Nine diagonals and f, two padded iterates with up to 1 KiB of alignment slack each.
  return 4.0 * (10.0 * static_cast<double>(grid.nodes()) + 2.0 * static_cast<double>(linear_padded_floats(grid) + 256));
}

}  // namespace cuda
