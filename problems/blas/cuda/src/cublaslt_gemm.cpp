// cuBLASLt's TF32 and BF16 product (cublaslt_gemm.hpp): the plan made once, the call timed.
#include "gpgpu/blas/cuda/cublaslt_gemm.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpgpu/blas/cuda/device_gemm.hpp"
#include "gpgpu/cuda/cublas.hpp"  // GPGPU_CUBLAS: the call, file, line and cuBLAS's status name and string

namespace gpgpu::blas::cuda {

using gpgpu::blas::Dims;

std::vector<cublasLtMatmulHeuristicResult_t> lt_algorithms(cublasLtHandle_t handle, cublasLtMatmulDesc_t op,
                                                           cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                                                           cublasLtMatrixLayout_t c, int count) {
  if (count < 1) throw std::invalid_argument("lt_algorithms: ask for at least one algorithm");
  LtPreference preference;  // read by the heuristic alone: the calls take the algorithm and a workspace
  GPGPU_CUBLAS(cublasLtMatmulPreferenceCreate(preference.out()));
  const std::uint64_t workspace = kLtWorkspaceBytes;
  GPGPU_CUBLAS(cublasLtMatmulPreferenceSetAttribute(preference.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                    &workspace, sizeof workspace));
  std::vector<cublasLtMatmulHeuristicResult_t> found(static_cast<std::size_t>(count));
  int n = 0;
  GPGPU_CUBLAS(cublasLtMatmulAlgoGetHeuristic(handle, op, a, b, c, c, preference.get(), count, found.data(), &n));
  if (n == 0) throw std::runtime_error("cublasLtMatmulAlgoGetHeuristic found no algorithm for this product");
  found.resize(static_cast<std::size_t>(n));
  return found;
}

//! [cublaslt_plan]
LtMatmul::LtMatmul(const Dims& d, cudaDataType in, cublasComputeType_t compute) : workspace_(kLtWorkspaceBytes) {
  const auto m = static_cast<std::uint64_t>(d.m), n = static_cast<std::uint64_t>(d.n), k = static_cast<std::uint64_t>(d.k);
  GPGPU_CUBLAS(cublasLtCreate(handle_.out()));
  GPGPU_CUBLAS(cublasLtMatmulDescCreate(op_.out(), compute, CUDA_R_32F));  // alpha and beta are floats
  GPGPU_CUBLAS(cublasLtMatrixLayoutCreate(b_layout_.out(), in, n, k, static_cast<std::int64_t>(n)));
  GPGPU_CUBLAS(cublasLtMatrixLayoutCreate(a_layout_.out(), in, k, m, static_cast<std::int64_t>(k)));
  GPGPU_CUBLAS(cublasLtMatrixLayoutCreate(c_layout_.out(), CUDA_R_32F, n, m, static_cast<std::int64_t>(n)));
  heuristic_ = lt_algorithms(handle_.get(), op_.get(), b_layout_.get(), a_layout_.get(), c_layout_.get(), 1).front();
}

void LtMatmul::operator()(const void* a, const void* b, float* c) {
  const float one = 1, zero = 0;
  GPGPU_CUBLAS(cublasLtMatmul(handle_.get(), op_.get(), &one, b, b_layout_.get(), a, a_layout_.get(), &zero, c,
                              c_layout_.get(), c, c_layout_.get(), &heuristic_.algo, workspace_.get(),
                              heuristic_.workspaceSize, nullptr));
}
//! [cublaslt_plan]

std::unique_ptr<gpgpu::blas::GemmOperation> cublaslt_gemm(Input input, const Dims& d) {
  const bool tf32 = input == Input::tf32;
  auto plan = std::make_shared<LtMatmul>(d, tf32 ? CUDA_R_32F : CUDA_R_16BF,
                                         tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F);
  const std::string launch = std::string("cublasLtMatmul(N, N), ") +
                             (tf32 ? "CUDA_R_32F inputs, CUBLAS_COMPUTE_32F_FAST_TF32" : "CUDA_R_16BF inputs, CUDA_R_32F C, CUBLAS_COMPUTE_32F") +
                             ", heuristic's first algorithm, " + std::to_string(plan->workspace_used() >> 10) + " KiB of workspace used";
  if (tf32) return std::make_unique<DeviceGemm<float>>(d, [plan](const float* a, const float* b, float* c) { (*plan)(a, b, c); }, launch);
  return std::make_unique<Bf16DeviceGemm>(d, [plan](const Bf16* a, const Bf16* b, float* c) { (*plan)(a, b, c); }, launch);
}

}  // namespace gpgpu::blas::cuda
