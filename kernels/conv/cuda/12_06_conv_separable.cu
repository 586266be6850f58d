// Chapter 12, convolution step 5: a separable filter. When the filter is rank one, f(p, q) = u_p v_q,
// the k² taps factor into a row pass, t(i, j) = sum_q v_q in(i, j + q - r), and a column pass,
// out(i, j) = sum_p u_p t(i + p - r, j): 2k FLOPs per pixel and pass, 4k in all, instead of 2k²
// (68 instead of 578 at k = 17), for an intermediate image written once and read once more. Each
// pass is the shared-memory tile of 12_03_conv_tiled.cu cut to one dimension: the block loads its
// outputs' window with the halo of r = k / 2 on the pass's two sides (zeros outside the image, the
// padding), waits, and each thread makes kSepOutputs outputs kBlockX (row pass) or kBlockY
// (column pass) apart, so that the warp's shared-memory reads stay on 32 banks. The factors sit
// in constant memory: every thread of a warp reads the same tap at once.
#include "conv_args.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::conv::cuda {
namespace {

__constant__ float factor_col[kMaxK];  // u: down the image, the column pass
__constant__ float factor_row[kMaxK];  // v: across the image, the row pass

//! [conv_separable]
constexpr int kRowTileW = kSepOutputs * kBlockX + kMaxK - 1, kColTileH = kSepOutputs * kBlockY + kMaxK - 1;

// The row pass: a block makes 8 rows x 128 columns of t.
__global__ void __launch_bounds__(kBlockX * kBlockY) conv_rows(SeparableArgs s) {
  __shared__ float tile[kBlockY][kRowTileW];
  const int r = s.k / 2, width = kSepOutputs * kBlockX + s.k - 1;
  const int row = blockIdx.y * kBlockY + threadIdx.y, col0 = blockIdx.x * kSepOutputs * kBlockX - r;
  for (int i = threadIdx.x; i < width; i += kBlockX) {
    const int x = col0 + i;
    tile[threadIdx.y][i] = (row < s.rows && x >= 0 && x < s.cols) ? s.in[row * s.cols + x] : 0.0f;
  }
  __syncthreads();  // reached by every thread: the early exits come after it
  if (row >= s.rows) return;
  for (int o = 0; o < kSepOutputs; ++o) {
    const int j = o * kBlockX + threadIdx.x, col = col0 + r + j;
    if (col >= s.cols) return;  // the later outputs lie further right
    float sum = 0;
    for (int q = 0; q < s.k; ++q) sum = fmaf(factor_row[q], tile[threadIdx.y][j + q], sum);
    s.tmp[row * s.cols + col] = sum;
  }
}

// The column pass: a block makes 32 rows x 32 columns of the output from t.
__global__ void __launch_bounds__(kBlockX * kBlockY) conv_columns(SeparableArgs s) {
  __shared__ float tile[kColTileH][kBlockX];
  const int r = s.k / 2, height = kSepOutputs * kBlockY + s.k - 1;
  const int col = blockIdx.x * kBlockX + threadIdx.x, row0 = blockIdx.y * kSepOutputs * kBlockY - r;
  for (int i = threadIdx.y; i < height; i += kBlockY) {
    const int y = row0 + i;
    tile[i][threadIdx.x] = (col < s.cols && y >= 0 && y < s.rows) ? s.tmp[y * s.cols + col] : 0.0f;
  }
  __syncthreads();
  if (col >= s.cols) return;
  for (int o = 0; o < kSepOutputs; ++o) {
    const int i = o * kBlockY + threadIdx.y, row = row0 + r + i;
    if (row >= s.rows) return;  // the later outputs lie further down
    float sum = 0;
    for (int p = 0; p < s.k; ++p) sum = fmaf(factor_col[p], tile[i + p][threadIdx.x], sum);
    s.out[row * s.cols + col] = sum;
  }
}
//! [conv_separable]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_conv_separable(const SeparableArgs& s, cudaStream_t stream) {
  GPGPU_CUDA_CHECK(cudaMemcpyToSymbolAsync(factor_col, s.factors, sizeof(float) * s.k, 0, cudaMemcpyDeviceToDevice, stream));
  GPGPU_CUDA_CHECK(cudaMemcpyToSymbolAsync(factor_row, s.factors + s.k, sizeof(float) * s.k, 0, cudaMemcpyDeviceToDevice, stream));
  conv_rows<<<separable_row_grid(s), dim3(kBlockX, kBlockY), 0, stream>>>(s);
  GPGPU_CUDA_CHECK_LAUNCH("conv_rows");
  conv_columns<<<separable_column_grid(s), dim3(kBlockX, kBlockY), 0, stream>>>(s);
  GPGPU_CUDA_CHECK_LAUNCH("conv_columns");
}
#endif

}  // namespace gpgpu::conv::cuda
