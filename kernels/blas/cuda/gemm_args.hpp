/// @file gemm_args.hpp
/// @brief What the GEMM kernels of chapter 10 receive. Each kernel's tile sizes are in its own file,
/// beside its launch.
/// Every matrix is dense and row-major: A is m x k, B is k x n, C = A·B is m x n. The option group
/// keeps every matrix below matrix::kMaxElements elements, so every in-range index fits an int;
/// kernels compute an index only for an element inside its matrix.
#pragma once
#include <cuda_runtime_api.h>

#include <optional>
#include <string>

namespace gpgpu::blas::cuda {

/// Out: C's type, T's unless the inputs are narrower than the sums (chapter 10b's BF16 inputs with
/// FP32 C, tensor_core_launchers.hpp).
template <typename T, typename Out = T>
struct GemmArgs {
  const T* a;
  const T* b;
  Out* c;
  int m;
  int n;
  int k;
};

/// gridDim.y is at most 65535 on every GPU: the kernels put the tile rows of C on it.
inline constexpr long long kMaxGridY = 65535;

/// Why a kernel that needs `block_rows` rows of blocks on gridDim.y cannot run, or nullopt: the
/// refusal every GEMM row of chapters 10 and 10b gives past kMaxGridY.
inline std::optional<std::string> grid_rows_refusal(long long block_rows) {
  if (block_rows <= kMaxGridY) return std::nullopt;
  return "needs " + std::to_string(block_rows) + " block rows; a grid has at most " + std::to_string(kMaxGridY);
}

/// Blocks of `per_block` that cover `count`.
constexpr unsigned blocks_for(long long count, long long per_block) {
  return static_cast<unsigned>((count + per_block - 1) / per_block);
}

}  // namespace gpgpu::blas::cuda
