/// @file cublaslt_gemm.hpp
/// @brief cuBLASLt, the lower-level cuBLAS API that cublasGemmEx sits on, as the tensor-core
/// chapters' peer (10b's TF32 and BF16 rows, 10c's BF16 reference beside its FP8 rows): the caller
/// describes the product (cublasLtMatmulDesc: compute and scale types), each matrix's layout
/// (cublasLtMatrixLayout: type, rows, columns, leading dimension), asks the library's heuristic
/// for an algorithm that fits a given workspace (cublasLtMatmulAlgoGetHeuristic), and passes that
/// algorithm and the workspace to every call (cublasLtMatmul). Everything but the call is done
/// once, outside the timed calls. (cuBLAS documentation, "Using the cuBLASLt API":
/// cublasLtMatmul, cublasLtMatmulAlgoGetHeuristic, cublasLtMatmulPreferenceAttributes_t.)
///
/// Same operands and the same row-major trick as cublasGemmEx's rows: row-major C = A·B is
/// column-major Cᵀ = Bᵀ·Aᵀ, so cuBLASLt's first operand is B (n x k, leading dimension n), its
/// second A (k x m, leading dimension k), C n x m with leading dimension n; beta = 0, so the poison
/// in C is never read and C's layout serves as D's.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include <cublasLt.h>

#include "gpgpu/blas/cuda/tensor_core_gemm.hpp"
#include "gpgpu/blas/operation.hpp"
#include "gpgpu/cuda/buffers.hpp"

namespace gpgpu::blas::cuda {

/// Owns one cuBLASLt object (a pointer type P) and destroys it with Destroy: the handle, the
/// matmul descriptor, the layouts and the preference are all of this form.
template <typename P, cublasStatus_t (*Destroy)(P)>
class LtOwned {
 public:
  LtOwned() = default;
  ~LtOwned() {
    if (p_ != nullptr) (void)Destroy(p_);  // a destructor cannot throw; the creation was checked
  }
  LtOwned(const LtOwned&) = delete;
  LtOwned& operator=(const LtOwned&) = delete;
  [[nodiscard]] P get() const { return p_; }
  P* out() { return &p_; }  // for the Create call; only on an empty owner

 private:
  P p_ = nullptr;
};

using LtHandle = LtOwned<cublasLtHandle_t, cublasLtDestroy>;
using LtMatmulDesc = LtOwned<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy>;
using LtLayout = LtOwned<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy>;
using LtPreference = LtOwned<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy>;

/// The workspace offered to the heuristic: the cuBLAS documentation recommends 32 MiB on Hopper
/// (cublasSetWorkspace's notes); the algorithm chosen may use less.
inline constexpr std::size_t kLtWorkspaceBytes = std::size_t{32} << 20;

/// The heuristic's first `count` algorithms (at least one, else it throws) for the product that
/// `op` and the layouts of its operands and C (D's layout is C's) describe, each within a workspace
/// of kLtWorkspaceBytes: what every cuBLASLt plan of the chapters asks before its first call.
std::vector<cublasLtMatmulHeuristicResult_t> lt_algorithms(cublasLtHandle_t handle, cublasLtMatmulDesc_t op,
                                                           cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                                                           cublasLtMatrixLayout_t c, int count);

/// One product's plan (TF32 or BF16 inputs, FP32 C): descriptors, layouts, the heuristic's
/// algorithm and the workspace, all made once; operator() enqueues the product on the default
/// stream (where the chapters' events are).
class LtMatmul {
 public:
  LtMatmul(const gpgpu::blas::Dims& d, cudaDataType in, cublasComputeType_t compute);
  void operator()(const void* a, const void* b, float* c);
  /// The heuristic's choice, for the launch line: the workspace it uses.
  [[nodiscard]] std::size_t workspace_used() const { return heuristic_.workspaceSize; }

 private:
  LtHandle handle_;
  LtMatmulDesc op_;
  LtLayout a_layout_, b_layout_, c_layout_;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  gpgpu::cuda::DeviceBuffer<unsigned char> workspace_;
};

/// cuBLASLt's product of TF32 (float inputs, CUBLAS_COMPUTE_32F_FAST_TF32) or BF16 inputs (rounded
/// once, as the chapters' BF16 rows; CUBLAS_COMPUTE_32F), C in FP32, the heuristic's first algorithm:
/// the make of a library_variant.
std::unique_ptr<gpgpu::blas::GemmOperation> cublaslt_gemm(Input input, const gpgpu::blas::Dims& d);

}  // namespace gpgpu::blas::cuda
