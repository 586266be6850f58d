/// @file conv_args.hpp
/// @brief The 2D convolution kernels of chapter 12 (paper 001's convolution filter, problems/conv):
/// what they receive, their block shape and one launch function per kernel file. The image is
/// rows x cols floats, row-major; the filter k x k (k odd, at most conv::kMaxFilter); outside the
/// image the input is 0 (zero padding). The host code is chapters/12_gpu_friendly/cuda_variants.cpp.
#pragma once
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <type_traits>

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

void launch_conv_naive(const ConvArgs& c, cudaStream_t stream);     // 12_01_conv_naive.cu
/// Copies the filter into constant memory on `stream` (device to device), then launches.
void launch_conv_constant(const ConvArgs& c, cudaStream_t stream);  // 12_02_conv_constant.cu
void launch_conv_tiled(const ConvArgs& c, cudaStream_t stream);     // 12_03_conv_tiled.cu
/// 12_04_conv_register.cu: kRegRows outputs per thread down a column (a block covers 32 x 64 pixels).
inline constexpr int kRegRows = 8;
void launch_conv_register(const ConvArgs& c, cudaStream_t stream);  // 12_04_conv_register.cu
/// 12_05_conv_float4.cu: kFloat4Rows x 4 outputs per thread, 4 along a row (a block covers 128 x 32).
inline constexpr int kFloat4Rows = 4;
void launch_conv_float4(const ConvArgs& c, cudaStream_t stream);  // 12_05_conv_float4.cu
/// 12_07_conv_aligned.cu: step 5's kAlignedRows x 4 outputs per thread (a block covers 128 x 32), the
/// window loaded and the outputs stored 16 bytes at a time where cols % 4 == 0.
inline constexpr int kAlignedRows = 4;
/// Copies the filter into constant memory on `stream` (device to device), then launches.
void launch_conv_aligned(const ConvArgs& c, cudaStream_t stream);  // 12_07_conv_aligned.cu

/// The kernels that compile the filter side in (steps 4, 5 and 7): calls launch(std::integral_constant<int, K>{})
/// for the odd K in [1, kMaxK] that equals k; any other k is an error naming the kernel.
template <typename Launch>
void with_filter_side(int k, const char* kernel, Launch&& launch) {
  switch (k) {
    case 1: return launch(std::integral_constant<int, 1>{});
    case 3: return launch(std::integral_constant<int, 3>{});
    case 5: return launch(std::integral_constant<int, 5>{});
    case 7: return launch(std::integral_constant<int, 7>{});
    case 9: return launch(std::integral_constant<int, 9>{});
    case 11: return launch(std::integral_constant<int, 11>{});
    case 13: return launch(std::integral_constant<int, 13>{});
    case 15: return launch(std::integral_constant<int, 15>{});
    case 17: return launch(std::integral_constant<int, 17>{});
    case 19: return launch(std::integral_constant<int, 19>{});
    case 21: return launch(std::integral_constant<int, 21>{});
    case 23: return launch(std::integral_constant<int, 23>{});
    case 25: return launch(std::integral_constant<int, 25>{});
    case 27: return launch(std::integral_constant<int, 27>{});
    case 29: return launch(std::integral_constant<int, 29>{});
    case 31: return launch(std::integral_constant<int, 31>{});
    default: throw std::invalid_argument(std::string(kernel) + ": filter side " + std::to_string(k) + " is not odd in [1, 31]");
  }
}
static_assert(kMaxK == 31, "with_filter_side lists the odd sides up to kMaxK");

/// 12_06_conv_separable.cu: a rank-one filter f(p, q) = u_p v_q as a row pass (v) into `tmp`, then a
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
/// The grid of kBlockX x kBlockY blocks that covers the image, each thread `rows_per_thread` rows
/// by `cols_per_thread` columns of it.
inline dim3 conv_grid(const ConvArgs& c, int rows_per_thread = 1, int cols_per_thread = 1) {
  return dim3(conv_blocks(c.cols, static_cast<long long>(kBlockX) * cols_per_thread),
              conv_blocks(c.rows, static_cast<long long>(kBlockY) * rows_per_thread));
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
