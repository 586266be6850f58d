// Chapter 10b: the inputs' one rounding, on the GPU, before the timed calls (the chapter prints its
// time beside the products'). One element per thread, a memory-bound pass.
//   - To bfloat16, to nearest even (__float2bfloat16_rn), for every BF16 row: cuBLAS's BF16 GEMM
//     takes its inputs in bfloat16, and so do the chapter's BF16 kernels, so the rounding is the
//     caller's, done once per upload. Each input is then off by at most 2^-8 of itself, the u_in of
//     the BF16 error bound (problems/blas, gemm.cpp).
//   - To TF32, still stored as floats, to nearest with ties away from zero (cvt.rna, as steps 1-6
//     and cuBLAS do inside their kernels), for steps 7-10 in TF32: they hand the floats to wgmma as
//     TMA landed them, and the tensor cores would cut each to its top 19 bits (the chapter's TF32
//     input test), an input error of up to 2^-10 instead of the bound's 2^-11. In place is allowed.
#include "tensor_core_launchers.hpp"

#include <stdexcept>
#include <string>

#include "gpgpu/cuda/check.hpp"
#include "mma_sync.hpp"  // to_tf32

namespace gpgpu::blas::cuda {
namespace {

constexpr int kRoundThreads = 256;

struct ToBf16 {
  __device__ Bf16 operator()(float x) const { return __float2bfloat16_rn(x); }
};

struct ToTf32 {
  __device__ float operator()(float x) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    __trap();  // cvt.rna.tf32 needs compute capability 8.0; the steps that round run on 9.0 alone
    return x;
#else
    return __uint_as_float(to_tf32(x));
#endif
  }
};

//! [round_inputs]
template <typename Out, typename Round>
__global__ void __launch_bounds__(kRoundThreads) round_inputs(const float* in, Out* out, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = Round{}(in[i]);
}
//! [round_inputs]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
namespace {

template <typename Out, typename Round>
void launch_rounding(const char* name, const float* in, Out* out, long long count, cudaStream_t stream) {
  if (count < 0 || count > 0x7FFFFFFF) throw std::length_error(std::string(name) + ": more elements than an int indexes");
  if (count == 0) return;
  round_inputs<Out, Round><<<blocks_for(count, kRoundThreads), kRoundThreads, 0, stream>>>(in, out, static_cast<int>(count));
  GPGPU_CUDA_CHECK_LAUNCH(name);
}

}  // namespace

void launch_round_to_bf16(const float* in, Bf16* out, long long count, cudaStream_t stream) {
  launch_rounding<Bf16, ToBf16>("round_to_bf16", in, out, count, stream);
}
void launch_round_to_tf32(const float* in, float* out, long long count, cudaStream_t stream) {
  launch_rounding<float, ToTf32>("round_to_tf32", in, out, count, stream);
}

#endif

}  // namespace gpgpu::blas::cuda
