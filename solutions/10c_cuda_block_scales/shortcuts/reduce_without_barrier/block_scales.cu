// Exercise 10c, a shortcut the checks must reject: the worked answer without the barriers of its
// reduction, so a thread may read a neighbour's value before the neighbour has written it.
#include "block_scales.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex10c {

EX10C_HOST_DEVICE float e4m3_scale_of(float amax) {
  if (!(amax > 0)) return 1.0f;
  int e = 0;
  const float mantissa = frexpf(amax, &e);  // amax = mantissa · 2^e, mantissa in [0.5, 1)
  // amax / 2^j <= 448 = 0.875 · 2^9 from j = e - 9 when mantissa <= 0.875, else from j = e - 8.
  const int j = mantissa <= 0.875f ? e - 9 : e - 8;
  return ldexpf(1.0f, j < -126 ? -126 : j);
}

namespace {

__global__ void block_scales(const float* in, long long rows, long long cols, long long block_rows, long long block_cols,
                             float* scale) {
  __shared__ float largest[kThreads];
  const long long col_blocks = (cols + block_cols - 1) / block_cols;
  const long long br = blockIdx.x / col_blocks, bc = blockIdx.x % col_blocks;
  const long long r0 = br * block_rows, c0 = bc * block_cols;
  const long long r1 = r0 + block_rows < rows ? r0 + block_rows : rows, c1 = c0 + block_cols < cols ? c0 + block_cols : cols;
  float m = 0;
  for (long long r = r0; r < r1; ++r)
    for (long long c = c0 + threadIdx.x; c < c1; c += blockDim.x) m = fmaxf(m, fabsf(in[r * cols + c]));
  largest[threadIdx.x] = m;
  for (int half = kThreads / 2; half > 0; half /= 2)
    if (static_cast<int>(threadIdx.x) < half) largest[threadIdx.x] = fmaxf(largest[threadIdx.x], largest[threadIdx.x + half]);
  if (threadIdx.x == 0) scale[blockIdx.x] = e4m3_scale_of(largest[0]);
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // check_block_scales_emulated.cpp runs the functions above on the CPU
void launch_block_scales(const float* in, long long rows, long long cols, long long block_rows, long long block_cols, float* scale) {
  const long long blocks = ((rows + block_rows - 1) / block_rows) * ((cols + block_cols - 1) / block_cols);
  if (blocks == 0) return;
  block_scales<<<static_cast<unsigned>(blocks), kThreads>>>(in, rows, cols, block_rows, block_cols, scale);
  GPGPU_CUDA_CHECK_LAUNCH("block_scales (exercise 10c)");
}
#endif

}  // namespace ex10c
