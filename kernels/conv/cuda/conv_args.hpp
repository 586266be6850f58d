/// @file conv_args.hpp
/// @brief The 2D convolution kernels of chapter 12 (paper 001's convolution filter, problems/conv):
/// what they receive, their block shape and one launch function per kernel file. The image is
/// rows x cols floats, row-major; the filter k x k (k odd, at most conv::kMaxFilter); outside the
/// image the input is 0 (zero padding). The host code is chapters/12_gpu_friendly/cuda_routines.cpp.
#pragma once
#include <cuda_runtime_api.h>

namespace gpgpu::conv::cuda {

struct ConvArgs {
  const float* in;
  const float* filter;  ///< device memory, k x k
  float* out;
  int rows;
  int cols;
  int k;
};

/// Every kernel: blocks of 32 x 8 threads, one output pixel per thread.
inline constexpr int kBlockX = 32, kBlockY = 8;
/// The largest filter side (= conv::kMaxFilter): the constant-memory filter and the shared tile
/// are sized for it.
inline constexpr int kMaxK = 31;

void launch_conv_naive(const ConvArgs& c, cudaStream_t stream);     // 12_conv_naive.cu
/// Copies the filter into constant memory on `stream` (device to device), then launches.
void launch_conv_constant(const ConvArgs& c, cudaStream_t stream);  // 12_conv_constant.cu
void launch_conv_tiled(const ConvArgs& c, cudaStream_t stream);     // 12_conv_tiled.cu
/// 12_conv_register.cu: kRegRows outputs per thread down a column (a block covers 32 x 64 pixels).
inline constexpr int kRegRows = 8;
void launch_conv_register(const ConvArgs& c, cudaStream_t stream);  // 12_conv_register.cu

/// 12_conv_separable.cu: a rank-one filter f(p, q) = u_p v_q as a row pass (v) into `tmp`, then a
/// column pass (u) into `out`; each thread makes kSepOutputs outputs along its pass.
struct SeparableArgs {
  const float* in;
  const float* factors;  ///< device memory: u (k values, down the image), then v (k values, across)
  float* tmp;            ///< rows x cols: the row pass's output, the column pass's input
  float* out;
  int rows;
  int cols;
  int k;
};
inline constexpr int kSepOutputs = 4;
/// Copies u and v into constant memory on `stream` (device to device), then launches both passes.
void launch_conv_separable(const SeparableArgs& s, cudaStream_t stream);

constexpr unsigned conv_blocks(long long count, long long per_block) {
  return static_cast<unsigned>((count + per_block - 1) / per_block);
}
/// The grid of kBlockX x kBlockY blocks that covers the image, `rows_per_thread` rows per thread.
inline dim3 conv_grid(const ConvArgs& c, int rows_per_thread = 1) {
  return dim3(conv_blocks(c.cols, kBlockX), conv_blocks(c.rows, static_cast<long long>(kBlockY) * rows_per_thread));
}

/// The row pass: blocks of kBlockY rows x kSepOutputs * kBlockX columns; the column pass: blocks
/// of kSepOutputs * kBlockY rows x kBlockX columns.
inline dim3 separable_row_grid(const SeparableArgs& s) {
  return dim3(conv_blocks(s.cols, static_cast<long long>(kSepOutputs) * kBlockX), conv_blocks(s.rows, kBlockY));
}
inline dim3 separable_column_grid(const SeparableArgs& s) {
  return dim3(conv_blocks(s.cols, kBlockX), conv_blocks(s.rows, static_cast<long long>(kSepOutputs) * kBlockY));
}

}  // namespace gpgpu::conv::cuda
