/// @file linear_solver.hpp
/// @brief Chapter 03's host code: the paper's 1D layout on the GPU (nine diagonal arrays, f, and two
/// ghost-padded iterates in cudaMalloc'd RAII buffers), the upload with ghost padding and NaN
/// poisoning, the launch loop that ping-pongs between the two iterates timed by CUDA events, and the
/// download; and the variants that run on it: chapter 03's `simple`, chapter 04's `aligned` and
/// `aligned32` (the same host code with the ghost offset rounded up). Chapter 07 reads the same
/// layout through texture objects; chapter 05's pitched layout reuses the loop (PingPongSolver).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/solver.hpp"
#include "jacobi/cuda/jacobi_args.hpp"

namespace gpgpu::jacobi::cuda {

/// The iteration loop of every CUDA solver: `iters` launches back to back between two CUDA events,
/// each reading one iterate and writing the other; the two swap roles, never data. The host does
/// not wait between launches, so the time is the kernels' time plus the gaps between them.
class PingPongSolver : public Solver {
 public:
  double iterate(int iters, float omega) final;

 protected:
  /// One iteration from iterate `in` into iterate 1 - in: one kernel launch, no wait.
  virtual void step(int in, float omega) = 0;
  /// Up to `remaining` iterations from the current iterate, no wait; returns how many it ran and
  /// leaves current_ on the iterate that holds their result. One step() unless a solver runs several
  /// sweeps per launch (chapter 07c).
  virtual int advance(int remaining, float omega);
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
  using Kernel = void (*)(const LinearArgs&, int block, cudaStream_t);

  /// Uploads the matrix and f (untimed) and launches `kernel` in blocks of `block` threads (a
  /// subclass that overrides step() passes nullptr).
  /// offset: nx+1 (chapter 03) or nx+1 rounded up (chapter 04). base_alignment: bytes each iterate's
  /// first ghost is aligned to (cudaMalloc's 256 B; a texture needs the device's textureAlignment).
  LinearSolver(const LinearSystem& sys, std::int64_t offset, int block, Kernel kernel,
               std::size_t base_alignment = 256);

  void reset(std::span<const float> x0) override;
  [[nodiscard]] std::vector<float> solution() override;
  [[nodiscard]] std::string launch() const override;

 protected:
  void step(int in, float omega) override;
  /// The kernel's arguments for one iteration from iterate `in` into iterate 1 - in.
  [[nodiscard]] LinearArgs args(int in, float omega) const;
  /// Where iterate b's padded vector starts (offset ghosts, then unknown 0).
  [[nodiscard]] const float* padded(int b) const { return start_[static_cast<std::size_t>(b)]; }
  /// Floats of one padded iterate.
  [[nodiscard]] std::size_t padded_floats() const { return padded_floats_; }
  [[nodiscard]] int block() const { return block_; }

 private:
  Grid grid_;
  std::int64_t offset_;
  int block_;
  Kernel kernel_;
  std::size_t padded_floats_;
  std::array<gpgpu::cuda::DeviceBuffer<float>, 9> diag_;
  gpgpu::cuda::DeviceBuffer<float> f_;
  std::array<gpgpu::cuda::DeviceBuffer<float>, 2> x_;
  std::array<float*, 2> start_{};  ///< the aligned start of each padded iterate inside x_
};

/// The paper's alignment of the ghost offset (chapter 04): 16 floats, one 64-byte half-warp
/// transaction of compute capability 1.x.
inline constexpr int kPaperAlignment = 16;
/// Today's: 32 floats, one 128-byte line (four 32-byte sectors) for a full warp. Chapter 07's
/// texture objects read this layout.
inline constexpr int kLineAlignment = 32;

/// `simple` (chapter 03): kernels/jacobi/cuda/03_simple.cu on a LinearSolver with the paper's
/// offset nx+1, in blocks of 64 threads unless --block says otherwise. `launch` is read when the
/// solver is made, after parsing: it must outlive the variant.
Variant simple_variant(const LaunchOptions& launch);

/// `aligned` (chapter 04): kernels/jacobi/cuda/04_aligned.cu with the offset nx+1 rounded up to
/// kPaperAlignment, so that unknown 0, and with it every warp's store and centre load, starts on a
/// segment boundary.
Variant aligned_variant(const LaunchOptions& launch);

/// `aligned32` (chapter 04): the same kernel with the offset rounded up to kLineAlignment.
Variant aligned32_variant(const LaunchOptions& launch);

/// Floats of one padded iterate of the 1D layouts on `grid`: the largest offset of chapters 03, 04
/// and 07 (nx+1 rounded up to 32), the unknowns, nx+1 ghosts behind, rounded up to 32.
[[nodiscard]] std::size_t linear_padded_floats(const Grid& grid);

/// Device bytes a LinearSolver allocates on `grid` (an upper bound, for the memory check).
[[nodiscard]] double linear_device_bytes(const Grid& grid);

}  // namespace gpgpu::jacobi::cuda
