// Chapter 10's compute limit: what the FP32 (or FP64) units can do when a kernel does nothing but
// fused multiply-adds. Each thread runs kFmaChains independent chains v = v * y + z, so that the
// 4-cycle latency of one FMA is hidden by the others; y and z come from a kernel argument, so the
// compiler cannot fold them, and each thread stores its sum, so it cannot drop them. FLOPs: 2 per
// FMA. Every GEMM of the chapter is judged as a share of this rate, measured in the same run.
#include "launchers.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

/// The launch: blocks of 256 threads, 2048 of them per SM (full occupancy), each thread running 8
/// independent chains; FMAs of one chain per iteration of the outer loop (unrolled).
constexpr int kFmaThreads = 256, kFmaThreadsPerSm = 2048, kFmaChains = 8, kUnroll = 16;

/// One fused multiply-add in the type's own precision (fmaf for float: no promotion to double).
__device__ __forceinline__ float fused(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ double fused(double a, double b, double c) { return fma(a, b, c); }

//! [fma_peak]
template <typename T>
__global__ void __launch_bounds__(kFmaThreads) fma_peak(T* out, int iterations, T x) {
  const T y = x * T(0.5), z = x * T(0.25);  // x = 1: v tends to 0.5, far from overflow
  //! [fma_chains]
  T v[kFmaChains];
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) v[c] = x + T(threadIdx.x % 7 + c);
  for (int it = 0; it < iterations; ++it)
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
#pragma unroll
      for (int c = 0; c < kFmaChains; ++c) v[c] = fused(v[c], y, z);
  //! [fma_chains]
  T sum = 0;
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) sum += v[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
//! [fma_peak]

}  // namespace

FmaShape fma_peak_shape(int sm_count) { return {sm_count * (kFmaThreadsPerSm / kFmaThreads), kFmaThreads, kFmaChains}; }

template <typename T>
void launch_fma_peak(T* out, const FmaShape& shape, int iterations, T x, cudaStream_t stream) {
  fma_peak<T><<<shape.blocks, kFmaThreads, 0, stream>>>(out, iterations / kUnroll, x);
  GPGPU_CUDA_CHECK_LAUNCH("fma_peak");
}
template void launch_fma_peak<float>(float*, const FmaShape&, int, float, cudaStream_t);
template void launch_fma_peak<double>(double*, const FmaShape&, int, double, cudaStream_t);

}  // namespace gpgpu::blas::cuda
