// The second library peer: cuBLASLt, the lower-level cuBLAS API that cublasGemmEx sits on. The
// caller describes the product (cublasLtMatmulDesc: compute and scale types), each matrix's layout
// (cublasLtMatrixLayout: type, rows, columns, leading dimension), asks the library's heuristic for
// an algorithm that fits a given workspace (cublasLtMatmulAlgoGetHeuristic), and passes that
// algorithm and the workspace to every call (cublasLtMatmul). Everything but the call is done
// once, at make(), outside the timed calls. (cuBLAS documentation, "Using the cuBLASLt API":
// cublasLtMatmul, cublasLtMatmulAlgoGetHeuristic, cublasLtMatmulPreferenceAttributes_t.)
//
// Same operands and the same row-major trick as cublasGemmEx's rows (cublas_variants.cpp):
// row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ, so cuBLASLt's first operand is B (n x k,
// leading dimension n), its second A (k x m, leading dimension k), C n x m with leading dimension
// n; beta = 0, so the poison in C is never read and C's layout serves as D's.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cublasLt.h>

#include "gpgpu/blas/cuda/device_gemm.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/cublas.hpp"  // GPGPU_CUBLAS: the call, file, line and cuBLAS's status name and string
#include "tensor_core_gemm.hpp"
#include "variants.hpp"

namespace ch10b {
namespace {

using gpgpu::blas::Dims;

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
constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;

//! [cublaslt_plan]
/// One product's plan: descriptors, layouts, the heuristic's algorithm and the workspace, all made
/// once; operator() enqueues the product on the default stream (where the chapter's events are).
class LtMatmul {
 public:
  LtMatmul(const Dims& d, cudaDataType in, cublasComputeType_t compute) : workspace_(kWorkspaceBytes) {
    const auto m = static_cast<std::uint64_t>(d.m), n = static_cast<std::uint64_t>(d.n), k = static_cast<std::uint64_t>(d.k);
    GPGPU_CUBLAS(cublasLtCreate(handle_.out()));
    GPGPU_CUBLAS(cublasLtMatmulDescCreate(op_.out(), compute, CUDA_R_32F));  // alpha and beta are floats
    GPGPU_CUBLAS(cublasLtMatrixLayoutCreate(b_layout_.out(), in, n, k, static_cast<std::int64_t>(n)));
    GPGPU_CUBLAS(cublasLtMatrixLayoutCreate(a_layout_.out(), in, k, m, static_cast<std::int64_t>(k)));
    GPGPU_CUBLAS(cublasLtMatrixLayoutCreate(c_layout_.out(), CUDA_R_32F, n, m, static_cast<std::int64_t>(n)));
    GPGPU_CUBLAS(cublasLtMatmulPreferenceCreate(preference_.out()));
    const std::uint64_t workspace = kWorkspaceBytes;
    GPGPU_CUBLAS(cublasLtMatmulPreferenceSetAttribute(preference_.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                      &workspace, sizeof workspace));
    int found = 0;
    GPGPU_CUBLAS(cublasLtMatmulAlgoGetHeuristic(handle_.get(), op_.get(), b_layout_.get(), a_layout_.get(), c_layout_.get(),
                                                c_layout_.get(), preference_.get(), 1, &heuristic_, &found));
    if (found == 0) throw std::runtime_error("cublasLtMatmulAlgoGetHeuristic found no algorithm for this product");
  }

  template <typename In>
  void operator()(const In* a, const In* b, float* c) {
    const float one = 1, zero = 0;
    GPGPU_CUBLAS(cublasLtMatmul(handle_.get(), op_.get(), &one, b, b_layout_.get(), a, a_layout_.get(), &zero, c,
                                c_layout_.get(), c, c_layout_.get(), &heuristic_.algo, workspace_.get(),
                                heuristic_.workspaceSize, nullptr));
  }

  /// The heuristic's choice, for the launch line: the workspace it uses.
  [[nodiscard]] std::size_t workspace_used() const { return heuristic_.workspaceSize; }

 private:
  LtHandle handle_;
  LtMatmulDesc op_;
  LtLayout a_layout_, b_layout_, c_layout_;
  LtPreference preference_;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  gpgpu::cuda::DeviceBuffer<unsigned char> workspace_;
};
//! [cublaslt_plan]

std::unique_ptr<gpgpu::blas::GemmOperation> make(Input input, const Dims& d) {
  const bool tf32 = input == Input::tf32;
  auto plan = std::make_shared<LtMatmul>(d, tf32 ? CUDA_R_32F : CUDA_R_16BF,
                                         tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F);
  const std::string launch = std::string("cublasLtMatmul(N, N), ") +
                             (tf32 ? "CUDA_R_32F inputs, CUBLAS_COMPUTE_32F_FAST_TF32" : "CUDA_R_16BF inputs, CUDA_R_32F C, CUBLAS_COMPUTE_32F") +
                             ", heuristic's first algorithm, " + std::to_string(plan->workspace_used() >> 10) + " KiB of workspace used";
  if (tf32) return std::make_unique<gpgpu::blas::cuda::DeviceGemm<float>>(d, [plan](const float* a, const float* b, float* c) { (*plan)(a, b, c); }, launch);
  return std::make_unique<Bf16DeviceGemm>(d, [plan](const Bf16* a, const Bf16* b, float* c) { (*plan)(a, b, c); }, launch);
}

gpgpu::blas::GemmVariant variant(const char* name, Input input, const char* description) {
  return library_variant(name, description, "chapters/10b_tensor_cores/cublaslt_variants.cpp", input, "cuBLASLt", make);
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> cublaslt_variants() {
  return {variant("cublaslt_tf32", Input::tf32, "cuBLASLt matmul, heuristic algorithm and workspace, TF32 tensor cores"),
          variant("cublaslt_bf16", Input::bf16, "cuBLASLt matmul on BF16 inputs (rounded as ours), FP32 sums")};
}

}  // namespace ch10b
