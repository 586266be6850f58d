/// @file pitched_solver.hpp
/// @brief Chapter 05's host code: every array from cudaMallocPitch with one pitch, so that each row
/// of the grid starts at an aligned address whatever the width, with kPitchedGhostRows zero rows
/// above and below the grid (and zero padding at the end of every row); the upload, NaN poisoning
/// and download of the 2D layout, and the 2D launch. The iteration loop is chapter 03's
/// (PingPongSolver). The variants that run on it: chapter 05's `pitched`, chapter 06's `shared`
/// and `shared_paper`; chapter 07b runs its kernels past the paper on it too.
#pragma once
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/stencil.hpp"
#include "jacobi/cuda/jacobi_args.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"

namespace gpgpu::jacobi::cuda {

/// The nine diagonals in the order of gpgpu::jacobi::cuda::Diagonals.
inline constexpr std::array<Dir, 9> kNineDiagonals{
    Dir::SW, Dir::S,  Dir::SE, Dir::W, Dir::C,
    Dir::E,  Dir::NW, Dir::N,  Dir::NE};

/// The symmetric storage's diagonals (the main one and the four upper ones), in SymmetricArgs order
/// (07b_04_symmetric.cu and the kernels of chapter 07c).
inline constexpr std::array<Dir, 5> kUpperDiagonals{Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE};

class PitchedSolver : public PingPongSolver {
 public:
  /// A kernel launch on the nine-diagonal pitched layout: 05_pitched.cu, 06_01_shared.cu, 07b_01_readonly.cu.
  using Kernel = void (*)(const PitchedArgs&, int block, cudaStream_t);

  /// Uploads the nine diagonals and f (untimed) and launches `kernel` in blocks of `block` threads,
  /// a 2D grid of 1D blocks (blockIdx.y picks the row).
  PitchedSolver(const LinearSystem& sys, int block, Kernel kernel);

  void reset(std::span<const float> x0) override;
  [[nodiscard]] std::vector<float> solution() override;
  /// "block 64, pitch 1056 floats".
  [[nodiscard]] std::string launch() const override;

 protected:
  /// For a kernel of a later chapter that overrides step(): the `stored` diagonals, in that order,
  /// and f after them.
  PitchedSolver(const LinearSystem& sys, std::span<const Dir> stored);

  void step(int in, float omega) override;
  /// The nine-diagonal kernels' arguments for one iteration from iterate `in` (needs all nine stored
  /// in kNineDiagonals order).
  [[nodiscard]] PitchedArgs args(int in, float omega);
  /// Element (0, 0) of stored array a: the diagonals in the order given, then f.
  [[nodiscard]] const float* array(std::size_t a) const { return arrays_[a].row(kPitchedGhostRows); }
  /// Element (0, 0) of iterate b.
  [[nodiscard]] const float* x(int b) const { return x_[static_cast<std::size_t>(b)].row(kPitchedGhostRows); }
  [[nodiscard]] float* x(int b) { return x_[static_cast<std::size_t>(b)].row(kPitchedGhostRows); }
  [[nodiscard]] int pitch() const { return static_cast<int>(pitch_); }
  [[nodiscard]] const Grid& grid() const { return grid_; }

  int block_ = 0;

 private:
  Grid grid_;
  Kernel kernel_ = nullptr;
  std::size_t pitch_ = 0;
  std::vector<gpgpu::cuda::PitchedBuffer<float>> arrays_;  // the stored diagonals, then f
  std::array<gpgpu::cuda::PitchedBuffer<float>, 2> x_;
};

/// Device bytes of the pitched layout on `grid` with `stored` diagonals (an upper bound: rows padded
/// by up to 512 B, 2 x kPitchedGhostRows ghost rows in each of the stored arrays, f and two iterates).
[[nodiscard]] double pitched_device_bytes(const Grid& grid, int stored = 9);

/// `pitched` (chapter 05): kernels/jacobi/cuda/05_pitched.cu on a PitchedSolver, in blocks of 64
/// threads unless --block says otherwise. `launch` must outlive the variant.
Variant pitched_variant(const LaunchOptions& launch);

/// `shared` (chapter 06): kernels/jacobi/cuda/06_01_shared.cu on the same layout, x rows j-1..j+1 of
/// the block staged in shared memory.
Variant shared_variant(const LaunchOptions& launch);

/// `shared_paper` (chapter 06): kernels/jacobi/cuda/06_02_shared_paper.cu, the tile loaded as the
/// paper's Fig. 15 shows it (every thread its own, aligned column; the first and the last thread
/// the halo).
Variant shared_paper_variant(const LaunchOptions& launch);

/// The check_fits of every variant on the pitched layout with `stored` diagonals (chapters 05-07b).
std::function<void(const Grid&, Session&)> fits_pitched(std::string variant, int stored = 9);

}  // namespace gpgpu::jacobi::cuda
