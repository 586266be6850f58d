// Chapter 10b: A and B rounded to bfloat16 once, on the GPU, before a BF16 product. cuBLAS's BF16
// GEMM takes its inputs already in bfloat16, and so do the chapter's BF16 kernels, so the rounding
// is the caller's: done here once per upload, outside the timed calls, for every BF16 variant alike
// (the chapter prints its time beside the products'). To nearest even (__float2bfloat16_rn): each
// input is then off by at most 2^-8 of itself, the u_in of the BF16 error bound (problems/blas,
// gemm.cpp). A memory-bound pass, one element per thread: 6 bytes moved per element.
#include "tensor_core_launchers.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

constexpr int kRoundThreads = 256;

//! [round_bf16]
__global__ void __launch_bounds__(kRoundThreads) round_to_bf16(const float* in, Bf16* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = __float2bfloat16_rn(in[i]);
}
//! [round_bf16]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_round_to_bf16(const float* in, Bf16* out, long long count, cudaStream_t stream) {
  if (count < 0 || count > 0x7FFFFFFF) throw std::length_error("round_to_bf16: more elements than an int indexes");
  if (count == 0) return;
  round_to_bf16<<<blocks_for(count, kRoundThreads), kRoundThreads, 0, stream>>>(in, out, static_cast<int>(count));
  GPGPU_CUDA_CHECK_LAUNCH("round_to_bf16");
}
#endif

}  // namespace gpgpu::blas::cuda
