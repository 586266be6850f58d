// Chapter 12: SSCAL, x <- alpha x. SAXPY (12_01_saxpy.cu) with half the arithmetic and two thirds of
// the traffic: each element read once and written once, 1 FLOP per 8 bytes (paper 001's "very low"
// load per element). The same shape: 16-byte accesses, one float4 per thread in a grid that covers
// the vector, the n % 4 tail done by the first threads of the grid.
#include "level12.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [sscal]
__global__ void __launch_bounds__(kVectorThreads) sscal_vec4(VectorArgs v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int quads = v.n / 4;
  float4* x4 = reinterpret_cast<float4*>(v.y);  // in place: the host passes x as y
  if (i < quads) {
    float4 x = x4[i];
    x.x *= v.alpha;
    x.y *= v.alpha;
    x.z *= v.alpha;
    x.w *= v.alpha;
    x4[i] = x;
  }
  const int tail = 4 * quads + i;
  if (tail < v.n) v.y[tail] *= v.alpha;
}
//! [sscal]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_sscal(const VectorArgs& v, cudaStream_t stream) {
  sscal_vec4<<<vector_blocks(v.n), kVectorThreads, 0, stream>>>(v);
  GPGPU_CUDA_CHECK_LAUNCH("sscal_vec4");
}
#endif

}  // namespace gpgpu::blas::cuda
