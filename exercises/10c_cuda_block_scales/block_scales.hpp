/// @file block_scales.hpp
/// @brief Exercise 10c: the scale of every block of a float matrix for E4M3 (chapter 10c, step 2).
#pragma once

#ifdef __CUDACC__
#define EX10C_HOST_DEVICE __host__ __device__
#else
#define EX10C_HOST_DEVICE
#endif

namespace ex10c {

/// Threads of a CUDA block: one CUDA block per scale block.
inline constexpr int kThreads = 256;
/// E4M3's largest finite value.
inline constexpr float kE4m3Largest = 448.0f;

/// The scale s of a block whose largest |x| is `amax`: the smallest power of two, at least 2^-126,
/// with amax / s <= 448, so that e4m3(x / s) never saturates and s is exact in every product it
/// multiplies (multiplying by a power of two only moves the exponent); 1 for a block of zeros (amax = 0).
EX10C_HOST_DEVICE float e4m3_scale_of(float amax);

/// The scales of `in` (rows x cols floats, row-major, in device memory) in blocks of block_rows x
/// block_cols elements (the last ones partial: ceil(rows / block_rows) x ceil(cols / block_cols)
/// blocks), into `scale` (device, one float per block, row-major by block: block (br, bc) at
/// scale[br * ceil(cols / block_cols) + bc]), each e4m3_scale_of its block's largest |x|. One CUDA
/// block of kThreads threads per scale block (blockIdx.x = br * ceil(cols / block_cols) + bc); its
/// threads share the block's elements, each keeping the largest |x| it saw, and reduce their kThreads
/// values to one in shared memory. Launched on the default stream, checked.
void launch_block_scales(const float* in, long long rows, long long cols, long long block_rows, long long block_cols, float* scale);

}  // namespace ex10c
