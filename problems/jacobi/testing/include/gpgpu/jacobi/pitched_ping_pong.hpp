/// @file pitched_ping_pong.hpp
/// @brief The host side that exercise checks share for a CUDA kernel on chapter 05's layout: arrays
/// with kPitchedGhostRows zero rows above and below the grid and the runtime's pitch, the two
/// iterates of the ping-pong loop (the output's unknowns NaN before the run, so an unknown the kernel
/// skips fails), and the loop itself timed by CUDA events. The check passes a step that launches its
/// kernel on (x, x_new, pitch in floats). Needs gpgpu::cuda (header only, part of jacobi_testing).
#pragma once
#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/grid.hpp"

namespace gpgpu::jacobi::testing {

class PitchedPingPong {
 public:
  static constexpr auto kGhostRows = static_cast<std::size_t>(kPitchedGhostRows);

  explicit PitchedPingPong(Grid grid) : grid_(grid) {
    const std::vector<float> zeros(static_cast<std::size_t>(grid.nodes()), 0.0f);
    x_[0] = field(zeros);
    x_[1] = field(zeros);
  }

  /// `values` (nx*ny, row by row) in chapter 05's layout.
  [[nodiscard]] gpgpu::cuda::PitchedBuffer<float> field(std::span<const float> values) const {
    return gpgpu::cuda::pitched_with_ghost_rows(values, nx(), ny(), kGhostRows);
  }
  /// Element (0, 0) of a field, as the kernels take it.
  [[nodiscard]] static float* origin(gpgpu::cuda::PitchedBuffer<float>& b) { return b.row(kGhostRows); }

  void reset(std::span<const float> x0) {
    x_[0] = field(x0);
    x_[1].fill_block_bytes(0xFF, nx(), ny(), kGhostRows);  // NaN unknowns
    current_ = 0;
  }

  /// Device time of `iters` calls of step(x, x_new, pitch in floats), swapping the iterates after each.
  template <class Step>
  double iterate(int iters, Step&& step) {
    timer_.start();
    for (int it = 0; it < iters; ++it) {
      step(origin(x_[current_]), origin(x_[1 - current_]), static_cast<int>(x_[0].pitch()));
      current_ ^= 1;
    }
    timer_.stop();
    return timer_.seconds();
  }

  [[nodiscard]] std::vector<float> solution() const { return x_[current_].download_rows(nx(), ny(), kGhostRows); }

 private:
  [[nodiscard]] std::size_t nx() const { return static_cast<std::size_t>(grid_.nx); }
  [[nodiscard]] std::size_t ny() const { return static_cast<std::size_t>(grid_.ny); }
  Grid grid_;
  std::array<gpgpu::cuda::PitchedBuffer<float>, 2> x_;
  std::size_t current_ = 0;
  gpgpu::cuda::EventTimer timer_;
};

}  // namespace gpgpu::jacobi::testing
