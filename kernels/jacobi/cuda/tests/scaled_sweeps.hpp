/// @file scaled_sweeps.hpp
/// @brief 07c_07_overlapped_scaled.cu's arithmetic on the CPU, as plainly as it can be written: one
/// sweep over the grid after another, no tiles, no halo, w = ω / c by scaled_diagonal and every
/// node by scaled_update (symmetric_update.hpp), the couplings read as the kernels read them on the
/// symmetric storage (the lower ones from the neighbours' upper diagonals) and zero outside the
/// grid, as are x there. Tiles, halos and sweeps per launch change where the values come from, not
/// the operations, so the kernel must give these bits, on the CPU emulation
/// (test_07c_kernels_emulated.cpp) and on a GPU (chapter 07c's test): both round every operation
/// to nearest, the division included. Include it after the __host__ and __device__ macros are
/// defined (cuda_runtime.h, or cuda_emulation.hpp).
#pragma once
#include <span>
#include <utility>
#include <vector>

#include "gpgpu/jacobi/bidomain.hpp"
#include "../symmetric_update.hpp"

namespace gpgpu::jacobi::cuda {

/// `iters` iterations of scaled_update from x0 with relaxation `omega`; the nx*ny unknowns.
inline std::vector<float> scaled_sweeps(const LinearSystem& sys, std::span<const float> x0, int iters, float omega) {
  const int nx = sys.grid.nx, ny = sys.grid.ny;
  const auto inside = [&](int i, int j) { return i >= 0 && i < nx && j >= 0 && j < ny; };
  const auto k = [&](int i, int j) { return static_cast<std::size_t>(j) * nx + i; };
  const auto a = [&](Dir d, int i, int j) { return inside(i, j) ? sys.A.diag[idx(d)][k(i, j)] : 0.0f; };
  std::vector<float> x(x0.begin(), x0.end()), next(x.size());
  const auto at = [&](int i, int j) { return inside(i, j) ? x[k(i, j)] : 0.0f; };
  for (int it = 0; it < iters; ++it) {
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        // SW, S, SE, W from the upper diagonals of the nodes below and to the left.
        const Neighbours coupling{a(Dir::NE, i - 1, j - 1), a(Dir::N, i, j - 1), a(Dir::NW, i + 1, j - 1),
                                  a(Dir::E, i - 1, j),      a(Dir::E, i, j),     a(Dir::NW, i, j),
                                  a(Dir::N, i, j),          a(Dir::NE, i, j)};
        const Neighbours xn{at(i - 1, j - 1), at(i, j - 1), at(i + 1, j - 1), at(i - 1, j),
                            at(i + 1, j),     at(i - 1, j + 1), at(i, j + 1), at(i + 1, j + 1)};
        next[k(i, j)] = scaled_update(coupling, xn, x[k(i, j)], scaled_diagonal(a(Dir::C, i, j), omega),
                                      sys.rhs[k(i, j)], omega);
      }
    std::swap(x, next);
  }
  return x;
}

}  // namespace gpgpu::jacobi::cuda
