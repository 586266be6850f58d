// The library peers of chapter 10b's kernels: cuBLAS's cublasGemmEx on the tensor cores, on the
// same row-major matrices as chapter 10's cublas_gemm.cpp (row-major C = A·B is column-major
// Cᵀ = Bᵀ·Aᵀ: the operands swapped, m and n swapped, the row lengths as leading dimensions; beta = 0,
// so the poison in C is never read). TF32: float inputs, CUBLAS_COMPUTE_32F_FAST_TF32 (cuBLAS
// rounds them itself, as our TF32 kernels do). BF16: the inputs rounded to bfloat16 once, by the
// same kernel and at the same point as ours (Bf16DeviceGemm), then CUDA_R_16BF A and B with
// CUDA_R_32F C and CUBLAS_COMPUTE_32F (the cuBLAS documentation's cublasGemmEx table of supported
// type combinations lists this one). Both judged by their inputs' bound, as ours. A third row,
// cublas_bf16_round_each_call, times the rounding from FP32 with every product.
#include <memory>
#include <string>

#include <cublas_v2.h>

#include "cuda_gemm.hpp"  // chapter 10's DeviceGemm
#include "gpgpu/cuda/cublas.hpp"
#include "tensor_core_gemm.hpp"
#include "tensor_core_variants.hpp"

namespace ch10b {
namespace {

using gpgpu::blas::Dims;

//! [cublas_gemm_ex]
// C = A·B by cublasGemmEx with inputs of `in` (CUDA_R_32F or CUDA_R_16BF), FP32 C, `compute`.
template <typename In>
void gemm_ex(cublasHandle_t handle, const Dims& d, const In* a, const In* b, float* c, cudaDataType in,
             cublasComputeType_t compute) {
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
  const float one = 1, zero = 0;
  GPGPU_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, in, n, a, in, k, &zero, c, CUDA_R_32F, n,
                            compute, CUBLAS_GEMM_DEFAULT));
}
//! [cublas_gemm_ex]

std::unique_ptr<gpgpu::blas::GemmOperation> make(Input input, const Dims& d) {
  auto handle = std::make_shared<gpgpu::cuda::CublasHandle>();
  if (input == Input::tf32) {
    auto call = [handle, d](const float* a, const float* b, float* c) {
      gemm_ex(handle->get(), d, a, b, c, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32);
    };
    return std::make_unique<ch10::DeviceGemm<float>>(d, call, "cublasGemmEx(N, N), CUDA_R_32F inputs, CUBLAS_COMPUTE_32F_FAST_TF32");
  }
  auto call = [handle, d](const Bf16* a, const Bf16* b, float* c) {
    gemm_ex(handle->get(), d, a, b, c, CUDA_R_16BF, CUBLAS_COMPUTE_32F);
  };
  return std::make_unique<Bf16DeviceGemm>(d, call, "cublasGemmEx(N, N), CUDA_R_16BF inputs, CUDA_R_32F C, CUBLAS_COMPUTE_32F");
}

/// The BF16 conversion's own row: cuBLAS's BF16 product on A and B that every timed call first
/// rounds from FP32 (the same rounding kernel). Its time minus cublas_bf16's is what rounding costs
/// a caller whose data are floats, which the BF16 rows otherwise pay once, outside their timing.
//! [bf16_rounding_row]
std::unique_ptr<gpgpu::blas::GemmOperation> make_rounding_every_call(Input, const Dims& d) {
  auto handle = std::make_shared<gpgpu::cuda::CublasHandle>();
  auto call = [handle, d](const Bf16* a, const Bf16* b, float* c) {
    gemm_ex(handle->get(), d, a, b, c, CUDA_R_16BF, CUBLAS_COMPUTE_32F);
  };
  return std::make_unique<Bf16DeviceGemm>(d, call, "cublasGemmEx(N, N), CUDA_R_16BF inputs, CUDA_R_32F C, CUBLAS_COMPUTE_32F",
                                          Bf16DeviceGemm::Preparation{}, Bf16DeviceGemm::Rounding::every_call);
}
//! [bf16_rounding_row]

gpgpu::blas::GemmVariant variant(const char* name, Input input, const char* description, LibraryMake how = make) {
  return library_variant(name, description, "chapters/10b_tensor_cores/cublas_tensor_cores.cpp", input, "cuBLAS", how);
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> cublas_variants() {
  return {variant("cublas_tf32", Input::tf32, "cuBLAS GEMM on TF32 tensor cores (the peer of the TF32 rows)"),
          variant("cublas_bf16", Input::bf16, "cuBLAS GEMM on BF16 inputs, FP32 sums (the peer of the BF16 rows)"),
          variant("cublas_bf16_round_each_call", Input::bf16,
                  "cuBLAS BF16 with A and B rounded from FP32 inside every timed call: the conversion's row", make_rounding_every_call)};
}

}  // namespace ch10b
