// Chapter 10b: floats rounded to TF32 once, on the GPU, before steps 7-10 multiply them. Those steps
// hand the floats to wgmma as TMA landed them, and the tensor cores then cut each to its top 19
// bits (the chapter's TF32 input test): an input error of up to 2^-10. Rounded to nearest first
// (cvt.rna, as steps 1-6 and cuBLAS do inside their kernels), it is at most 2^-11, the u_in of the
// TF32 error bound (problems/blas, gemm.cpp). Done in the preparation, beside Bᵀ's copy, outside
// the timed calls (the chapter prints its time). In place is allowed (in == out). A memory-bound
// pass, one element per thread: 8 bytes moved per element.
#include "tensor_core_launchers.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"
#include "mma_sync.hpp"  // to_tf32

namespace gpgpu::blas::cuda {
namespace {

constexpr int kRoundTf32Threads = 256;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
// cvt.rna.tf32 needs compute capability 8.0; the steps that call this run on 9.0 alone.
__global__ void round_to_tf32(const float*, float*, int) { __trap(); }
#else
//! [round_tf32]
__global__ void __launch_bounds__(kRoundTf32Threads) round_to_tf32(const float* in, float* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = __uint_as_float(to_tf32(in[i]));
}
//! [round_tf32]
#endif

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_round_to_tf32(const float* in, float* out, long long count, cudaStream_t stream) {
  if (count < 0 || count > 0x7FFFFFFF) throw std::length_error("round_to_tf32: more elements than an int indexes");
  if (count == 0) return;
  round_to_tf32<<<blocks_for(count, kRoundTf32Threads), kRoundTf32Threads, 0, stream>>>(in, out, static_cast<int>(count));
  GPGPU_CUDA_CHECK_LAUNCH("round_to_tf32");
}
#endif

}  // namespace gpgpu::blas::cuda
