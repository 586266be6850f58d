/// @file jacobi_args.hpp
/// @brief What the Jacobi kernels receive: pointers to the matrix diagonals, the right-hand side,
/// the input and output iterates, and the sizes. Internal to kernels/cuda (it names CUDA types);
/// chapters use the plain C++ interface in include/gpgpu/cuda_jacobi.hpp.
#pragma once
#include <cuda_runtime_api.h>

namespace gpgpu::cuda_jacobi {

/// The nine diagonals of the matrix in the paper's order (gpgpu::Dir: SW, S, SE, W, C, E, NW, N, NE).
struct Diagonals {
  const float *sw, *s, *se, *w, *c, *e, *nw, *n, *ne;
};

/// 1D layouts (kernels 01, 02): diagonals and f hold nx*ny values; x and x_new hold `offset`
/// ghost elements, the nx*ny unknowns, and nx+1 (or more) ghosts behind (paper Fig. 12).
struct LinearArgs {
  Diagonals A;
  const float* f;
  const float* x;
  float* x_new;
  int nx;
  int nodes;   ///< nx*ny
  int offset;  ///< index of unknown 0 in x and x_new
  float omega;
};

/// Kernel 05: as LinearArgs, but x is read through a texture object.
struct TextureArgs {
  Diagonals A;
  const float* f;
  cudaTextureObject_t x;
  float* x_new;
  int nx;
  int nodes;
  int offset;
  float omega;
};

/// Ghost rows above and below the grid in every pitched array: one for the neighbour row, one
/// more so that the corner neighbours (a column outside the row) stay inside the allocation even
/// when cudaMallocPitch adds no padding (the pitched equivalent of the nx+1 ghost elements).
inline constexpr int kGhostRows = 2;

/// Pitched layouts (kernels 03, 04, 06-08): every array is pitched alike, so element (i, j) of
/// each one is at index j*pitch + i from its pointer, which points at element (0, 0) (the start
/// of the allocation plus kGhostRows rows). Neighbours are at ±1, ±pitch, ±pitch±1.
struct PitchedArgs {
  Diagonals A;
  const float* f;
  const float* x;
  float* x_new;
  int nx;
  int ny;
  int pitch;  ///< elements per row, a multiple of 4 (16 bytes)
  float omega;
};

/// Kernel 09: the five stored diagonals of the symmetric matrix (the main diagonal and the upper
/// ones); the lower couplings are read from the neighbours: W(k) = E(k-1), S(k) = N(k-pitch),
/// SW(k) = NE(k-pitch-1), SE(k) = NW(k-pitch+1). Pitched like PitchedArgs.
struct SymmetricArgs {
  const float *c, *e, *nw, *n, *ne;
  const float* f;
  const float* x;
  float* x_new;
  int nx;
  int ny;
  int pitch;
  float omega;
};

/// Rows of the grid handled by one launch: blockIdx.y covers at most this many; kernels loop over
/// the rest (gridDim.y is limited to 65535 on every GPU).
inline constexpr int kMaxGridY = 65535;

}  // namespace gpgpu::cuda_jacobi
