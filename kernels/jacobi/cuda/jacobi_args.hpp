/// @file jacobi_args.hpp
/// @brief What the Jacobi kernels receive: pointers to the matrix diagonals, the right-hand side,
/// the input and output iterates, and the sizes. The host code of chapters 03-07b fills them and
/// calls the launchers (launchers.hpp).
#pragma once
#include <cuda_runtime_api.h>

#include "gpgpu/jacobi/layouts.hpp"

namespace gpgpu::jacobi::cuda {

/// The nine diagonals of the matrix in the paper's order (gpgpu::jacobi::Dir: SW, S, SE, W, C, E, NW, N, NE).
struct Diagonals {
  const float *sw, *s, *se, *w, *c, *e, *nw, *n, *ne;
};

/// 1D layouts (03_simple.cu, 04_aligned.cu): diagonals and f hold nx*ny values; x and x_new hold `offset`
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

/// 07_texture.cu: as LinearArgs, but x is read through a texture object.
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

/// Pitched layouts (05_pitched.cu, 06_01_shared.cu, 07b_01_readonly.cu, 07b_02_tiled2d.cu, 07b_03_multirow.cu): every array is
/// pitched alike, so element (i, j) of each one is at index j*pitch + i from its pointer, which
/// points at element (0, 0) (the start of the allocation plus gpgpu::jacobi::kPitchedGhostRows
/// rows). Neighbours are at ±1, ±pitch, ±pitch±1.
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

/// 07b_04_symmetric.cu: the five stored diagonals of the symmetric matrix (the main diagonal and the upper
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

/// A published update norm in host memory that the GPU writes (cudaHostAllocMapped): the value,
/// then `sequence` (the check's number), which the host waits for.
struct PublishedNorm {
  double value;
  unsigned long long sequence;
};

/// A check whose sum one thread hands to the host (13_peer_store.cu, publish_norm): it reads `sum`,
/// sets it back to zero, and writes the value, then `sequence`, to `slot`. Made at the start of a
/// launch that comes after every launch of the check in stream order (a kernel boundary: every block
/// of those launches has added its sum), or by a kernel of its own. slot nullptr: nothing to publish.
struct NormPublication {
  double* sum = nullptr;            ///< the check's complete sum (device memory)
  PublishedNorm* slot = nullptr;    ///< the device's address of the host's slot, or nullptr
  unsigned long long sequence = 0;  ///< the check's number, written after the value
};

/// 13_peer_store.cu: one GPU's rows of a split grid in the symmetric storage, and where its first
/// and last rows also go: element (0, ghost row) of the neighbours' new iterates on their GPUs
/// (nullptr at the grid's edges).
struct PeerStoreArgs {
  SymmetricArgs rows;
  float* below_ghost;  ///< the ghost row above the rows of the GPU below (it receives row 0)
  float* above_ghost;  ///< the ghost row below the rows of the GPU above (it receives row ny-1)
  /// Where the launch adds Σ (x_new − x)² of its rows (one double on this GPU), or nullptr: no norm.
  double* squared_sum = nullptr;
  /// An earlier check that this launch's block 0 publishes before it sweeps (slot nullptr: none).
  NormPublication publish{};
};

/// 07c_01_overlapped.cu and 07c_04_wavefront.cu: the nodes a block brings to the end of a launch of
/// several sweeps (its output tile; the wavefront's strip width and rows): x columns (a multiple
/// of 4, so that every on-chip row starts on a float4) and y rows.
struct TemporalTile {
  int x = 64;
  int y = 32;
};

/// The halo columns each side of a chapter 07c tile swept s times: s rings, rounded up to whole
/// float4s (4 * ceil(s / 4)), so that every on-chip row starts on a float4 and loads as float4s.
__host__ __device__ constexpr int halo_columns(int sweeps) { return (sweeps + 3) / 4 * 4; }

/// 07c_05_persistent.cu: the symmetric system (sys.x and sys.x_new unused), the two iterates it
/// ping-pongs between inside one launch (x[0] holds the input; after `iters` sweeps the result is in
/// x[iters % 2]), and the rows each block keeps on chip.
struct PersistentArgs {
  SymmetricArgs sys;
  float* x[2];
  int iters;
  int rows_per_block;
};

/// 07c_06_overlapped_persistent.cu: the symmetric system (sys.x and sys.x_new unused) and the two
/// iterates it ping-pongs between from one trip of s sweeps to the next (x[0] holds the input;
/// after `trips` trips the result is in x[trips % 2]).
struct TripArgs {
  SymmetricArgs sys;
  float* x[2];
  int trips;
};

/// Rows of the grid handled by one launch: blockIdx.y covers at most this many; kernels loop over
/// the rest (gridDim.y is limited to 65535 on every GPU).
inline constexpr int kMaxGridY = 65535;

}  // namespace gpgpu::jacobi::cuda
