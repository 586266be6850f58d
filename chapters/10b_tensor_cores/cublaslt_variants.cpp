// The second library peer: cuBLASLt, the lower-level cuBLAS API that cublasGemmEx sits on
// (gpgpu/blas/cuda/cublaslt_gemm.hpp: the plan, made once, and the timed call), in TF32 and BF16,
// on the same operands and with the same row-major trick as cublasGemmEx's rows
// (cublas_variants.cpp). Chapter 10c adds its FP8 matmul.
#include <vector>

#include "gpgpu/blas/cuda/cublaslt_gemm.hpp"
#include "gpgpu/blas/cuda/tensor_core_gemm.hpp"
#include "variants.hpp"

namespace ch10b {
namespace {

namespace bc = gpgpu::blas::cuda;
using bc::Input;

gpgpu::blas::GemmVariant variant(const char* name, Input input, const char* description) {
  return bc::library_variant(name, description, "problems/blas/cuda/src/cublaslt_gemm.cpp", input, "cuBLASLt", bc::cublaslt_gemm);
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> cublaslt_variants() {
  return {variant("cublaslt_tf32", Input::tf32, "cuBLASLt matmul, heuristic algorithm and workspace, TF32 tensor cores"),
          variant("cublaslt_bf16", Input::bf16, "cuBLASLt matmul on BF16 inputs (rounded as ours), FP32 sums")};
}

}  // namespace ch10b
