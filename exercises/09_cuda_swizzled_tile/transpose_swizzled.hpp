/// @file transpose_swizzled.hpp
/// @brief Exercise 09: a transpose through a 32 x 32 shared-memory tile that has no bank conflicts
/// without padding: element (row, col) of the tile is kept in column swizzled_column(row, col) of
/// row `row` of a plain float[32][32].
#pragma once

#ifdef __CUDACC__
#define EX09_HOST_DEVICE __host__ __device__
#else
#define EX09_HOST_DEVICE
#endif

#ifdef GPGPU_CUDA_EMULATION  // the CPU check: shared loads and stores recorded, bank conflicts counted
#include "matrix/cuda/tests/shared_banks.hpp"
#endif

namespace ex09 {

/// Edge of the tile, in elements: a warp of 32 threads is one row or one column of it.
inline constexpr int kTile = 32;
/// Threads per block: kTile x kRowsPerPass, each moving kTile / kRowsPerPass elements.
inline constexpr int kRowsPerPass = 8;

/// The element type of the kernel's shared tile: `float` on the GPU. On the CPU emulation it is a
/// float whose every load and store is recorded, so that the CPU check can count the kernel's bank
/// conflicts (and see that the tile has no padding).
#ifdef GPGPU_CUDA_EMULATION
using SharedFloat = ::emu::banks::Watched<float>;
#else
using SharedFloat = float;
#endif

/// The physical column of shared memory that holds element (row, col) of the tile, for row and
/// col in [0, kTile). The kernel stores a tile of the input as its transpose, a warp's 32 threads
/// writing elements (0, c) ... (31, c) of one column c of the tile, and then reads it back a row at a
/// time, a warp's threads reading (r, 0) ... (r, 31). It must hold every element in a place of its
/// own (for each row, col -> swizzled_column is a permutation of 0 .. kTile-1), and neither
/// pattern may make two threads of a warp touch the same bank (word address mod 32) in different
/// words.
EX09_HOST_DEVICE int swizzled_column(int row, int col);

/// out = inᵀ for `in` rows x cols (row-major, device memory) and `out` cols x rows: one block of
/// kTile x kRowsPerPass threads per kTile x kTile tile of `in`, through
/// `__shared__ SharedFloat tile[kTile][kTile]` (no padding) indexed by swizzled_column. Launches on
/// the default stream and checks the launch.
void launch_transpose_swizzled(const float* in, float* out, int rows, int cols);

/// Bytes of static shared memory the kernel uses (cudaFuncGetAttributes): kTile * kTile * 4
/// exactly, no padding.
int transpose_swizzled_shared_bytes();

}  // namespace ex09
