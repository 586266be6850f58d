/// @file pitched_solver.hpp
/// @brief Chapter 05's host code: every array from cudaMallocPitch with one pitch, so that each row
/// of the grid starts at an aligned address whatever the width, with
/// gpgpu::jacobi::kPitchedGhostRows zero rows above and below the grid (and zero padding at the
/// end of every row); the upload, NaN poisoning and download of the 2D layout, and the 2D launch.
/// The iteration loop is chapter 03's (ch03::PingPongSolver). Chapter 06 reuses it with the shared
/// kernel, chapter 07b with its kernels past the paper.
#pragma once
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/stencil.hpp"
#include "jacobi/cuda/jacobi_args.hpp"
#include "linear_solver.hpp"

namespace ch05 {

/// The nine diagonals in the order of gpgpu::jacobi::cuda::Diagonals.
inline constexpr std::array<gpgpu::jacobi::Dir, 9> kNineDiagonals{
    gpgpu::jacobi::Dir::SW, gpgpu::jacobi::Dir::S,  gpgpu::jacobi::Dir::SE, gpgpu::jacobi::Dir::W, gpgpu::jacobi::Dir::C,
    gpgpu::jacobi::Dir::E,  gpgpu::jacobi::Dir::NW, gpgpu::jacobi::Dir::N,  gpgpu::jacobi::Dir::NE};

class PitchedSolver : public ch03::PingPongSolver {
 public:
  /// A kernel launch on the nine-diagonal pitched layout: 05_pitched.cu, 06_shared.cu, 07b_readonly.cu.
  using Kernel = void (*)(const gpgpu::jacobi::cuda::PitchedArgs&, int block, cudaStream_t);

  /// Uploads the nine diagonals and f (untimed) and launches `kernel` in blocks of `block` threads,
  /// a 2D grid of 1D blocks (blockIdx.y picks the row).
  PitchedSolver(const gpgpu::jacobi::LinearSystem& sys, int block, Kernel kernel);

  void reset(std::span<const float> x0) override;
  [[nodiscard]] std::vector<float> solution() override;
  /// "block 64, pitch 1056 floats".
  [[nodiscard]] std::string launch() const override;

 protected:
  /// For a kernel of a later chapter that overrides step(): the `stored` diagonals, in that order,
  /// and f after them.
  PitchedSolver(const gpgpu::jacobi::LinearSystem& sys, std::span<const gpgpu::jacobi::Dir> stored);

  void step(int in, float omega) override;
  /// The nine-diagonal kernels' arguments for one iteration from iterate `in` (needs all nine stored
  /// in kNineDiagonals order).
  [[nodiscard]] gpgpu::jacobi::cuda::PitchedArgs args(int in, float omega);
  /// Element (0, 0) of stored array a: the diagonals in the order given, then f.
  [[nodiscard]] const float* array(std::size_t a) const { return arrays_[a].row(gpgpu::jacobi::kPitchedGhostRows); }
  /// Element (0, 0) of iterate b.
  [[nodiscard]] const float* x(int b) const { return x_[static_cast<std::size_t>(b)].row(gpgpu::jacobi::kPitchedGhostRows); }
  [[nodiscard]] float* x(int b) { return x_[static_cast<std::size_t>(b)].row(gpgpu::jacobi::kPitchedGhostRows); }
  [[nodiscard]] int pitch() const { return static_cast<int>(pitch_); }
  [[nodiscard]] const gpgpu::jacobi::Grid& grid() const { return grid_; }

  int block_ = 0;

 private:
  gpgpu::jacobi::Grid grid_;
  Kernel kernel_ = nullptr;
  std::size_t pitch_ = 0;
  std::vector<gpgpu::cuda::PitchedBuffer<float>> arrays_;  // the stored diagonals, then f
  std::array<gpgpu::cuda::PitchedBuffer<float>, 2> x_;
};

/// Device bytes of the pitched layout on `grid` with `stored` diagonals (an upper bound: rows padded
/// by up to 512 B, 2 x kPitchedGhostRows ghost rows in each of the stored arrays, f and two iterates).
[[nodiscard]] double pitched_device_bytes(const gpgpu::jacobi::Grid& grid, int stored = 9);

}  // namespace ch05
