/// @file launch_tuning.hpp
/// @brief Chapter 07b's tuning of the row-walking kernels (07b_03_multirow, 07b_04_symmetric, and chapter
/// 13's parts of the grid): which launch shapes are tried, and the choice of the fastest. Every
/// solver that tunes those kernels calls fastest_launch with its own way of timing a shape.
#pragma once
#include <functional>
#include <string>

namespace gpgpu::jacobi {

/// How a row-walking kernel is launched: threads per block, and rows per thread (0: chapter 07b's
/// occupancy rule, rows_per_thread_for in kernels/jacobi/cuda/launchers.hpp).
struct LaunchShape {
  int block = 128;
  int rows_per_thread = 0;
};

/// The fastest shape, its time and a line saying what was chosen.
struct TunedLaunch {
  LaunchShape shape;
  double seconds = 0;  ///< time_of(shape)
  int tried = 0;
  std::string text;  ///< "block 128, 4 rows per thread: 0.1234 ms/iter, fastest of 16 configurations x 20 iterations"
};

/// Times `first` (the solver's current launch, which also warms up), then blocks of 64, 128 and 256
/// threads x 1, 2, 4, 8 and 16 rows per thread, each by `time_of` (seconds for `iters` iterations
/// with that shape), and returns the fastest (the earlier on a tie). Leaves the solver in the last
/// shape tried: the caller sets the one returned.
[[nodiscard]] TunedLaunch fastest_launch(const LaunchShape& first, int iters,
                                         const std::function<double(const LaunchShape&)>& time_of);

}  // namespace gpgpu::jacobi
