/// @file linear_solver.hpp
/// @brief Chapter 03's host code: the paper's 1D layout on the GPU (nine diagonal arrays, f, and two
/// ghost-padded iterates in cudaMalloc'd RAII buffers), the upload with ghost padding and NaN
/// poisoning, the launch loop that ping-pongs between the two iterates timed by CUDA events, and the
/// download. Chapter 04 reuses it with the aligned offset, chapter 07 with texture objects over it;
/// chapter 05's pitched layout reuses the loop (PingPongSolver).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/solver.hpp"
#include "jacobi/cuda/jacobi_args.hpp"

namespace ch03 {

/// The iteration loop of every CUDA solver: `iters` launches back to back between two CUDA events,
/// each reading one iterate and writing the other; the two swap roles, never data. The host does
/// not wait between launches, so the time is the kernels' time plus the gaps between them.
class PingPongSolver : public gpgpu::jacobi::Solver {
 public:
  double iterate(int iters, float omega) final;

 protected:
  /// One iteration from iterate `in` into iterate 1 - in: one kernel launch, no wait.
  virtual void step(int in, float omega) = 0;
  int current_ = 0;  ///< the iterate that holds the current values

 private:
  gpgpu::cuda::EventTimer timer_;
};

/// The 1D layout of chapters 03, 04 and 07 (paper Figs. 2 and 12): nine diagonals and f of nx*ny
/// values each, and two iterates with `offset` zero ghosts in front of unknown 0 and at least nx+1
/// behind, so every neighbour index is valid without a test.
class LinearSolver : public PingPongSolver {
 public:
  /// A kernel launch: 03_simple.cu, 04_aligned.cu.
  using Kernel = void (*)(const gpgpu::jacobi::cuda::LinearArgs&, int block, cudaStream_t);

  /// Uploads the matrix and f (untimed) and launches `kernel` in blocks of `block` threads (a
  /// subclass that overrides step() passes nullptr).
  /// offset: nx+1 (chapter 03) or nx+1 rounded up (chapter 04). base_alignment: bytes each iterate's
  /// first ghost is aligned to (cudaMalloc's 256 B; a texture needs the device's textureAlignment).
  LinearSolver(const gpgpu::jacobi::LinearSystem& sys, std::int64_t offset, int block, Kernel kernel,
               std::size_t base_alignment = 256);

  void reset(std::span<const float> x0) override;
  [[nodiscard]] std::vector<float> solution() override;
  [[nodiscard]] std::string launch() const override;

 protected:
  void step(int in, float omega) override;
  /// The kernel's arguments for one iteration from iterate `in` into iterate 1 - in.
  [[nodiscard]] gpgpu::jacobi::cuda::LinearArgs args(int in, float omega) const;
  /// Where iterate b's padded vector starts (offset ghosts, then unknown 0).
  [[nodiscard]] const float* padded(int b) const { return start_[static_cast<std::size_t>(b)]; }
  /// Floats of one padded iterate.
  [[nodiscard]] std::size_t padded_floats() const { return padded_floats_; }
  [[nodiscard]] int block() const { return block_; }

 private:
  gpgpu::jacobi::Grid grid_;
  std::int64_t offset_;
  int block_;
  Kernel kernel_;
  std::size_t padded_floats_;
  std::array<gpgpu::cuda::DeviceBuffer<float>, 9> diag_;
  gpgpu::cuda::DeviceBuffer<float> f_;
  std::array<gpgpu::cuda::DeviceBuffer<float>, 2> x_;
  std::array<float*, 2> start_{};  ///< the aligned start of each padded iterate inside x_
};

/// Floats of one padded iterate of the 1D layouts on `grid`: the largest offset of chapters 03, 04
/// and 07 (nx+1 rounded up to 32), the unknowns, nx+1 ghosts behind, rounded up to 32.
[[nodiscard]] std::size_t linear_padded_floats(const gpgpu::jacobi::Grid& grid);

/// Device bytes a LinearSolver allocates on `grid` (an upper bound, for the memory check).
[[nodiscard]] double linear_device_bytes(const gpgpu::jacobi::Grid& grid);

}  // namespace ch03
