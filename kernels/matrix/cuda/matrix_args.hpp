/// @file matrix_args.hpp
/// @brief What the matrix kernels of chapter 09 receive, and the arithmetic of their grids (each
/// kernel's block and tile sizes sit in its own file, beside its launch). Every matrix is dense and row-major: element (r, c) of a rows x cols matrix is at
/// r * cols + c. The chapter's option group keeps rows * cols below kMaxElements, so every index
/// and every index plus one grid-stride step fits an int.
#pragma once
#include <cuda_runtime_api.h>

namespace gpgpu::matrix::cuda {

/// C = A + B, all three rows x cols.
template <typename T>
struct AddArgs {
  const T* a;
  const T* b;
  T* c;
  int rows;
  int cols;
};

/// out = inᵀ: `in` is rows x cols, `out` is cols x rows.
template <typename T>
struct TransposeArgs {
  const T* in;
  T* out;
  int rows;
  int cols;
};

/// gridDim.y is at most 65535 on every GPU; gridDim.x at most 2^31 - 1.
inline constexpr int kMaxGridY = 65535;

/// The grid and the block of a launch: what the host code prints, and checks against kMaxGridY
/// for the kernels without a row loop, before it launches.
struct LaunchShape {
  dim3 grid;
  dim3 block;
};

/// Blocks of `per_block` items that cover `count` items.
constexpr unsigned blocks_for(long long count, long long per_block) {
  return static_cast<unsigned>((count + per_block - 1) / per_block);
}
/// gridDim.y for `blocks` block rows: at most kMaxGridY (the kernels that allow more loop).
constexpr unsigned grid_y(long long blocks) { return static_cast<unsigned>(blocks < kMaxGridY ? blocks : kMaxGridY); }

}  // namespace gpgpu::matrix::cuda
