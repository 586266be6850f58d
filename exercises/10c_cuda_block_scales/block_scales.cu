// Exercise 10c skeleton: write e4m3_scale_of and the kernel body marked TODO(exercise). The checks
// (check_block_scales_emulated.cpp on the CPU, check_block_scales.cpp on the GPU) fail until both
// are right.
#include "block_scales.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex10c {

EX10C_HOST_DEVICE float e4m3_scale_of(float amax) {
  (void)amax;
  return 1.0f;  // TODO(exercise): the smallest power of two s >= 2^-126 with amax / s <= 448 (see the header)
}

namespace {

__global__ void block_scales(const float* in, long long rows, long long cols, long long block_rows, long long block_cols,
                             float* scale) {
  (void)in;
  (void)rows;
  (void)cols;
  (void)block_rows;
  (void)block_cols;
  (void)scale;
  // TODO(exercise): block blockIdx.x = br * ceil(cols / block_cols) + bc finds the largest |x| of
  // its scale block (rows br*block_rows.., columns bc*block_cols.., the last ones partial), its
  // kThreads threads sharing the elements and reducing their largest values in shared memory, and
  // one thread writes e4m3_scale_of(that) to scale[blockIdx.x].
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
