// Chapter 10c: the FP8 inputs' one quantisation, on the GPU, before the timed calls (the chapter
// prints its time beside the products', and one cuBLASLt row quantises inside every call to show
// what the conversion costs). One element per thread, a memory-bound pass.
//   - To FP8 (E4M3) with one scale per tensor, for the FP8 rows: the largest |x| (amax_bits), the
//     scale s = amax / 448 that puts it on E4M3's largest value (e4m3_scale_from_amax), then every x
//     as e4m3(x / s) (quantise_e4m3). x / s is a correctly rounded float division (nvcc's default
//     -prec-div=true) and the conversion rounds to nearest even, saturating at ±448
//     (__nv_cvt_float_to_fp8 with __NV_SATFINITE: cvt.rn.satfinite.e4m3x2.f32 on sm_89 and later):
//     the host's gpgpu::blas::dequantised_e4m3 (problems/blas, fp8.hpp) does the same float
//     operations, so the FP64 reference multiplies exactly the values the tensor cores receive.
//   - To FP8 with a scale per block, for step 2: each block's scale (e4m3_block_scales: one
//     CUDA block per scale block, its threads' largest |x| reduced in shared memory) is the power
//     of two gpgpu::blas::e4m3_block_scale chooses, computed by the same exact frexp and ldexp; then
//     quantise_e4m3 as above, each element divided by its block's scale (E4m3ScaleBlocks says
//     where that is), which gpgpu::blas::dequantised_e4m3_blocks mirrors.
#include "tensor_core_launchers.hpp"

#include <algorithm>
#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

constexpr int kQuantiseThreads = 256;
constexpr float kE4m3Largest = 448.0f;  // gpgpu::blas::kE4m3Max

//! [quantise_e4m3]
// One byte of the output per thread: element (r, c) of `out_rows` rows of `pitch` bytes is
// e4m3(x / s) of the input element it stands for (transposed: in[c][r]), or 0 past the matrix's
// columns, s the scale of that input element's block (one block, scale[0], for a scale per tensor).
// Transposed, the reads are strided: a one-time preparation, timed on its own.
__global__ void __launch_bounds__(kQuantiseThreads) quantise_e4m3(E4m3Quantise q) {
  const long long out_rows = q.transpose ? q.cols : q.rows, out_cols = q.transpose ? q.rows : q.cols;
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= out_rows * q.pitch) return;
  const long long r = i / q.pitch, c = i % q.pitch;
  __nv_fp8_storage_t byte = 0;
  if (c < out_cols) {
    const long long in_r = q.transpose ? c : r, in_c = q.transpose ? r : c;
    const float x = q.in[in_r * q.cols + in_c];
    const E4m3ScaleBlocks& b = q.blocks;
    const float s = q.scale[in_r / b.rows * b.row_stride + in_c / b.cols * b.col_stride];
    byte = __nv_cvt_float_to_fp8(x / s, __NV_SATFINITE, __NV_E4M3);
  }
  q.out[i] = byte;
}
//! [quantise_e4m3]

// gpgpu::blas::e4m3_block_scale, by the same operations (frexpf and ldexpf are exact): the smallest
// power of two s with amax / s <= 448 = 0.875 · 2^9, at least 2^-126, 1 for a block of zeros.
__device__ __forceinline__ float e4m3_block_scale(float amax) {
  if (!(amax > 0)) return 1.0f;
  int e = 0;
  const float mantissa = frexpf(amax, &e);
  const int j = mantissa <= 0.875f ? e - 9 : e - 8;
  return ldexpf(1.0f, j < -126 ? -126 : j);
}

//! [e4m3_block_scales]
// One CUDA block per scale block (blockIdx.x runs over them row of blocks by row of blocks): its
// threads take the block's columns in turn, row by row (coalesced), each keeping the largest |x|
// it saw; a tree in shared memory reduces them (no atomics: the CPU emulation, which runs it, has
// none), and thread 0 writes the scale where the quantiser will read it.
__global__ void __launch_bounds__(kQuantiseThreads) e4m3_block_scales(E4m3BlockScales q) {
  __shared__ float largest[kQuantiseThreads];
  const E4m3ScaleBlocks& b = q.blocks;
  const long long col_blocks = (q.cols + b.cols - 1) / b.cols;
  const long long row_block = blockIdx.x / col_blocks, col_block = blockIdx.x % col_blocks;
  const long long r0 = row_block * b.rows, c0 = col_block * b.cols;
  const long long r1 = r0 + b.rows < q.rows ? r0 + b.rows : q.rows, c1 = c0 + b.cols < q.cols ? c0 + b.cols : q.cols;
  float m = 0;
  for (long long r = r0; r < r1; ++r)
    for (long long c = c0 + threadIdx.x; c < c1; c += blockDim.x) m = fmaxf(m, fabsf(q.in[r * q.cols + c]));
  largest[threadIdx.x] = m;
  __syncthreads();
  for (int half = kQuantiseThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) largest[threadIdx.x] = fmaxf(largest[threadIdx.x], largest[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0) q.scale[row_block * b.row_stride + col_block * b.col_stride] = e4m3_block_scale(largest[0]);
}
//! [e4m3_block_scales]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
namespace {

// Not on the CPU emulation (it has no warp shuffles or atomics): the GPU test of the FP8 rows covers them.
// The largest |x| of `count` floats into *amax as its bits (zeroed by the caller): non-negative
// floats order as their bits do as unsigned integers, so atomicMax on the bits is a max on the
// values. Each warp reduces first, so one atomic per warp and pass.
__global__ void __launch_bounds__(kQuantiseThreads) amax_bits(const float* in, unsigned* amax, long long count) {
  unsigned largest = 0;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    largest = max(largest, __float_as_uint(fabsf(in[i])));
  for (int offset = 16; offset > 0; offset /= 2) largest = max(largest, __shfl_xor_sync(0xFFFFFFFFu, largest, offset));
  if (threadIdx.x % 32 == 0) atomicMax(amax, largest);
}

// The scale from the amax in place: s = amax / 448, or 1 for a tensor of zeros (gpgpu::blas::e4m3_scale).
__global__ void e4m3_scale_from_amax(float* scale) {
  const float amax = __uint_as_float(*reinterpret_cast<const unsigned*>(scale));
  *scale = amax > 0 ? amax / kE4m3Largest : 1.0f;
}


}  // namespace

void launch_e4m3_scale(const float* in, long long count, float* scale, cudaStream_t stream) {
  if (count < 0) throw std::invalid_argument("e4m3_scale: a negative element count");
  GPGPU_CUDA_CHECK(cudaMemsetAsync(scale, 0, sizeof(float), stream));
  if (count > 0) {
    const long long blocks = std::min<long long>(blocks_for(count, kQuantiseThreads), 4096);  // each thread loops over the rest
    amax_bits<<<static_cast<unsigned>(blocks), kQuantiseThreads, 0, stream>>>(in, reinterpret_cast<unsigned*>(scale), count);
    GPGPU_CUDA_CHECK_LAUNCH("amax_bits");
  }
  e4m3_scale_from_amax<<<1, 1, 0, stream>>>(scale);
  GPGPU_CUDA_CHECK_LAUNCH("e4m3_scale_from_amax");
}

void launch_quantise_e4m3(const E4m3Quantise& q, cudaStream_t stream) {
  const long long out_rows = q.transpose ? q.cols : q.rows, out_cols = q.transpose ? q.rows : q.cols;
  if (q.rows < 0 || q.cols < 0 || q.pitch < out_cols) throw std::invalid_argument("quantise_e4m3: rows of fewer bytes than columns");
  if (q.blocks.rows < 1 || q.blocks.cols < 1) throw std::invalid_argument("quantise_e4m3: empty scale blocks");
  const long long count = out_rows * q.pitch;
  if (count == 0) return;
  quantise_e4m3<<<static_cast<unsigned>(blocks_for(count, kQuantiseThreads)), kQuantiseThreads, 0, stream>>>(q);
  GPGPU_CUDA_CHECK_LAUNCH("quantise_e4m3");
}

void launch_e4m3_block_scales(const E4m3BlockScales& q, cudaStream_t stream) {
  const E4m3ScaleBlocks& b = q.blocks;
  if (q.rows < 0 || q.cols < 0 || b.rows < 1 || b.cols < 1) throw std::invalid_argument("e4m3_block_scales: a negative size or empty blocks");
  const long long count = ((q.rows + b.rows - 1) / b.rows) * ((q.cols + b.cols - 1) / b.cols);
  if (count > 0x7FFFFFFF) throw std::length_error("e4m3_block_scales: more blocks than a grid holds");
  if (count == 0) return;
  e4m3_block_scales<<<static_cast<unsigned>(count), kQuantiseThreads, 0, stream>>>(q);
  GPGPU_CUDA_CHECK_LAUNCH("e4m3_block_scales");
}
#endif

}  // namespace gpgpu::blas::cuda
