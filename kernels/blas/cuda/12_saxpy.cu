// Chapter 12: SAXPY, y <- alpha x + y. No reuse at all: each element of x and y is read once and y
// written once, 2 FLOPs per 12 bytes; the only thing a kernel can do is keep the memory system
// busy. So: 16-byte loads and stores (float4: a warp moves 512 bytes per instruction), a grid of a
// few blocks per SM striding over the vectors (no block scheduling for 2^28 elements), and the
// n % 4 tail done by the first threads of the grid.
#include "level12.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [saxpy]
__global__ void __launch_bounds__(kVectorThreads) saxpy_vec4(VectorArgs v) {
  const int stride = gridDim.x * blockDim.x;
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int quads = v.n / 4;  // cudaMalloc'ed arrays are 256-byte aligned: x and y as float4
  const float4* x4 = reinterpret_cast<const float4*>(v.x);
  float4* y4 = reinterpret_cast<float4*>(v.y);
  for (int i = first; i < quads; i += stride) {
    const float4 x = x4[i];
    float4 y = y4[i];
    y.x = fmaf(v.alpha, x.x, y.x);
    y.y = fmaf(v.alpha, x.y, y.y);
    y.z = fmaf(v.alpha, x.z, y.z);
    y.w = fmaf(v.alpha, x.w, y.w);
    y4[i] = y;
  }
  const int tail = 4 * quads + first;  // the last n % 4 elements, one thread each
  if (tail < v.n) v.y[tail] = fmaf(v.alpha, v.x[tail], v.y[tail]);
}
//! [saxpy]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_saxpy(const VectorArgs& v, int sm_count, cudaStream_t stream) {
  saxpy_vec4<<<vector_blocks(v.n, sm_count), kVectorThreads, 0, stream>>>(v);
  GPGPU_CUDA_CHECK_LAUNCH("saxpy_vec4");
}
#endif

}  // namespace gpgpu::blas::cuda
