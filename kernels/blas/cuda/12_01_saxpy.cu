// Chapter 12: SAXPY, y <- alpha x + y. No reuse at all: each element of x and y is read once and y
// written once, 2 FLOPs per 12 bytes; the only thing a kernel can do is keep the memory system
// busy. So: 16-byte loads and stores (float4: a warp moves 512 bytes per instruction), one float4
// per thread in a grid that covers the vectors (the launch shape of the stream limit: each thread
// issues its two loads at once and retires, and the block scheduler keeps every SM full of fresh
// loads; a grid-stride loop of 8 blocks per SM waits for each step's loads before the next step's,
// and fell short of that limit), and the n % 4 tail done by the first threads.
#include "level12.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [saxpy]
__global__ void __launch_bounds__(kVectorThreads) saxpy_vec4(VectorArgs v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int quads = v.n / 4;  // cudaMalloc'ed arrays are 256-byte aligned: x and y as float4
  const float4* x4 = reinterpret_cast<const float4*>(v.x);
  float4* y4 = reinterpret_cast<float4*>(v.y);
  if (i < quads) {
    const float4 x = __ldg(x4 + i);  // x is only read: the read-only path, as the limit's loads
    float4 y = y4[i];
    y.x = fmaf(v.alpha, x.x, y.x);
    y.y = fmaf(v.alpha, x.y, y.y);
    y.z = fmaf(v.alpha, x.z, y.z);
    y.w = fmaf(v.alpha, x.w, y.w);
    y4[i] = y;
  }
  const int tail = 4 * quads + i;  // the last n % 4 elements, one thread each
  if (tail < v.n) v.y[tail] = fmaf(v.alpha, v.x[tail], v.y[tail]);
}
//! [saxpy]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_saxpy(const VectorArgs& v, cudaStream_t stream) {
  saxpy_vec4<<<vector_blocks(v.n), kVectorThreads, 0, stream>>>(v);
  GPGPU_CUDA_CHECK_LAUNCH("saxpy_vec4");
}
#endif

}  // namespace gpgpu::blas::cuda
