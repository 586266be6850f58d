// The library peers of chapter 10b's kernels: cuBLAS's cublasGemmEx on the tensor cores, on the
// same row-major matrices as chapter 10's cublas_variants.cpp (row-major C = A·B is column-major
// Cᵀ = Bᵀ·Aᵀ: the operands swapped, m and n swapped, the row lengths as leading dimensions; beta = 0,
// so the poison in C is never read). TF32: float inputs, CUBLAS_COMPUTE_32F_FAST_TF32 (cuBLAS
// rounds them to nearest itself, as steps 1-6 do: the chapter's TF32 input test). BF16: the inputs
// rounded to bfloat16 once, by the same kernel and at the same point as ours (Bf16DeviceGemm), then
// CUDA_R_16BF A and B with CUDA_R_32F C and CUBLAS_COMPUTE_32F (the cuBLAS documentation's
// cublasGemmEx table of supported type combinations lists this one). All judged by their inputs'
// bound, as ours. cublas_*_bt are given Bᵀ, the copy the TMA steps read; cublas_bf16_round_each_call
// times the rounding from FP32 with every product; cublas_bf16_bf16c writes C in BF16 (step 11's peer).
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>

#include <cublas_v2.h>

#include "gpgpu/blas/cuda/device_gemm.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/cublas.hpp"
#include "gpgpu/blas/cuda/tensor_core_gemm.hpp"
#include "variants.hpp"

namespace ch10b {
namespace {

using gpgpu::blas::Dims;
using gpgpu::blas::cuda::Bf16;
using gpgpu::blas::cuda::Bf16DeviceGemm;
using gpgpu::blas::cuda::Input;
using gpgpu::blas::cuda::LibraryMake;
using gpgpu::blas::cuda::library_variant;
using gpgpu::blas::cuda::TensorCoreGemm;
using gpgpu::blas::cuda::transpose_on_gpu;

//! [cublas_gemm_ex]
// C = A·B by cublasGemmEx with inputs of `in` (CUDA_R_32F or CUDA_R_16BF), C in FP32 (or, for
// step 11's peer, BF16), `compute`. `b` is B (k x n), or, where b_transposed, its transposed copy Bᵀ
// (n x k): in cuBLAS's column-major view that is an n x k operand of leading dimension k,
// transposed (a "TN" product).
template <typename In, typename Out>
void gemm_ex(cublasHandle_t handle, const Dims& d, const In* a, const In* b, Out* c, cudaDataType in,
             cublasComputeType_t compute, bool b_transposed = false) {
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
  const float one = 1, zero = 0;
  constexpr cudaDataType kC = std::is_same_v<Out, float> ? CUDA_R_32F : CUDA_R_16BF;
  GPGPU_CUBLAS(cublasGemmEx(handle, b_transposed ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, in,
                            b_transposed ? k : n, a, in, k, &zero, c, kC, n, compute, CUBLAS_GEMM_DEFAULT));
}
//! [cublas_gemm_ex]

std::unique_ptr<gpgpu::blas::GemmOperation> make(Input input, const Dims& d) {
  auto handle = std::make_shared<gpgpu::cuda::CublasHandle>();
  if (input == Input::tf32) {
    auto call = [handle, d](const float* a, const float* b, float* c) {
      gemm_ex(handle->get(), d, a, b, c, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32);
    };
    return std::make_unique<gpgpu::blas::cuda::DeviceGemm<float>>(d, call, "cublasGemmEx(N, N), CUDA_R_32F inputs, CUBLAS_COMPUTE_32F_FAST_TF32");
  }
  auto call = [handle, d](const Bf16* a, const Bf16* b, float* c) {
    gemm_ex(handle->get(), d, a, b, c, CUDA_R_16BF, CUBLAS_COMPUTE_32F);
  };
  return std::make_unique<Bf16DeviceGemm>(d, call, "cublasGemmEx(N, N), CUDA_R_16BF inputs, CUDA_R_32F C, CUBLAS_COMPUTE_32F");
}

/// Step 11's peer with BF16 C: CUDA_R_16BF A, B and C with CUBLAS_COMPUTE_32F (also in the
/// cublasGemmEx table), C rounded by the library, judged by the same BF16-C bound.
std::unique_ptr<gpgpu::blas::GemmOperation> make_bf16_c(Input, const Dims& d) {
  auto handle = std::make_shared<gpgpu::cuda::CublasHandle>();
  auto call = [handle, d](const Bf16* a, const Bf16* b, Bf16* c) { gemm_ex(handle->get(), d, a, b, c, CUDA_R_16BF, CUBLAS_COMPUTE_32F); };
  return std::make_unique<TensorCoreGemm<Bf16, Bf16>>(d, call, "cublasGemmEx(N, N), CUDA_R_16BF inputs and C, CUBLAS_COMPUTE_32F");
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

/// cuBLAS given the operands the TMA steps read: Bᵀ, made once by the same transpose before the
/// timed calls (TensorCoreGemm's preparation, timed and printed as theirs), and multiplied as the
/// "TN" product. The like-for-like peer of the TMA steps; cublas_* above reads B as it is.
//! [cublas_bt]
template <typename In>
std::unique_ptr<gpgpu::blas::GemmOperation> make_on_bt(const Dims& d, cudaDataType type, cublasComputeType_t compute,
                                                       const char* line) {
  auto handle = std::make_shared<gpgpu::cuda::CublasHandle>();
  auto bt = std::make_shared<gpgpu::cuda::DeviceBuffer<In>>(static_cast<std::size_t>(d.k * d.n));
  auto call = [handle, bt, d, type, compute](const In* a, const In*, float* c) {
    gemm_ex(handle->get(), d, a, bt->get(), c, type, compute, true);
  };
  typename TensorCoreGemm<In>::Preparation p{"B transposed on the GPU",
                                             [bt, d](const In*, const In* b) {
                                               transpose_on_gpu(b, bt->get(), static_cast<int>(d.k), static_cast<int>(d.n));
                                             }};
  return std::make_unique<TensorCoreGemm<In>>(d, call, line, std::move(p));
}
//! [cublas_bt]

std::unique_ptr<gpgpu::blas::GemmOperation> make_bt(Input input, const Dims& d) {
  if (input == Input::tf32)
    return make_on_bt<float>(d, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, "cublasGemmEx(T, N) on B^T, CUDA_R_32F inputs, CUBLAS_COMPUTE_32F_FAST_TF32");
  return make_on_bt<Bf16>(d, CUDA_R_16BF, CUBLAS_COMPUTE_32F, "cublasGemmEx(T, N) on B^T, CUDA_R_16BF inputs, CUDA_R_32F C, CUBLAS_COMPUTE_32F");
}

gpgpu::blas::GemmVariant variant(const char* name, Input input, const char* description, LibraryMake how = make) {
  return library_variant(name, description, "chapters/10b_tensor_cores/cublas_variants.cpp", input, "cuBLAS", how);
}

/// The variant with C in BF16: judged by the BF16 bound with C's rounding.
gpgpu::blas::GemmVariant bf16_c(gpgpu::blas::GemmVariant v) {
  v.bf16_c = true;
  return v;
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> cublas_variants() {
  return {variant("cublas_tf32", Input::tf32, "cuBLAS GEMM on TF32 tensor cores (the peer of the TF32 rows)"),
          variant("cublas_bf16", Input::bf16, "cuBLAS GEMM on BF16 inputs, FP32 sums (the peer of the BF16 rows)"),
          variant("cublas_tf32_bt", Input::tf32, "cuBLAS TF32 on B transposed once, as the TMA steps read it", make_bt),
          variant("cublas_bf16_bt", Input::bf16, "cuBLAS BF16 on B transposed once, as the TMA steps read it", make_bt),
          variant("cublas_bf16_round_each_call", Input::bf16,
                  "cuBLAS BF16 with A and B rounded from FP32 inside every timed call: the conversion's row", make_rounding_every_call),
          bf16_c(variant("cublas_bf16_bf16c", Input::bf16, "cuBLAS BF16 with C rounded to BF16 (the peer of step 11's BF16 C)", make_bf16_c))};
}

}  // namespace ch10b
