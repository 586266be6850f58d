// The FP8 library peer of chapter 10c's steps: cuBLASLt's FP8 matmul (E4M3 inputs with a scale per
// tensor), with its algorithm chosen by the heuristic or the fastest of its top candidates, C in
// FP32 or BF16, and one row that quantises in every call; and cuBLASLt's BF16 product
// (gpgpu/blas/cuda/cublaslt_gemm.hpp, chapter 10b's peer) as the same run's BF16 reference, the rate
// FP8 is to double. Everything but the call is done once, outside the timed calls. (cuBLAS
// documentation, "Using the cuBLASLt API": cublasLtMatmul, its FP8 requirements,
// CUBLASLT_MATMUL_DESC_A_SCALE_POINTER.)
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cublasLt.h>

#include "gpgpu/blas/cuda/cublaslt_gemm.hpp"
#include "gpgpu/blas/cuda/tensor_core_gemm.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/cublas.hpp"  // GPGPU_CUBLAS: the call, file, line and cuBLAS's status name and string
#include "fp8_gemm.hpp"
#include "variants.hpp"

namespace ch10c {
namespace {

namespace bc = gpgpu::blas::cuda;
using bc::Input;
using bc::LtHandle;
using bc::LtLayout;
using bc::LtMatmulDesc;
using bc::tensor_core_variant;
using gpgpu::blas::Dims;

//! [cublaslt_fp8_plan]
/// The FP8 product: cuBLASLt's FP8 kernels take E4M3 inputs only as "TN" (its A transposed, its B
/// not: both K-major) with 16-byte aligned pointers, leading dimensions and dimensions (cuBLAS
/// documentation, cublasLtMatmul's FP8 requirements; at sizes of no multiple of 16 the heuristic
/// answered CUBLAS_STATUS_NOT_SUPPORTED on the H200). So it multiplies the product zero-padded to multiples of
/// 16 in m, n and k, whose extra rows and columns Fp8Gemm keeps zero. Row-major C = A·B is
/// column-major Cᵀ = Bᵀ·Aᵀ (chapter 10's cuBLAS rows), so its A is our Bᵀ (n rows of `pitch` bytes: k x n column-major, transposed by the op) and
/// its B our A (m rows of `pitch`: k x m column-major), D = C (n x m column-major, leading dimension
/// ldc). One scale per tensor: the library multiplies the FP32 sums by *A_SCALE · *B_SCALE (device
/// pointers, read at every call) before it writes D, so the scales of our B and A go there.
class LtFp8Matmul {
 public:
  /// The heuristic's first `candidates` algorithms (1: its choice alone).
  LtFp8Matmul(const Dims& d, Fp8Out out, int candidates) : scales_for_heuristic_(2 * Fp8Gemm::kScaleStride), workspace_(bc::kLtWorkspaceBytes) {
    // The padded shape: every dimension rounded up to 16 (Fp8Gemm's buffers).
    const auto pitch = static_cast<std::int64_t>(Fp8Gemm::pitch_for(d.k)), ldc = static_cast<std::int64_t>(Fp8Gemm::pitch_for(d.n));
    const auto m = static_cast<std::uint64_t>(Fp8Gemm::pitch_for(d.m)), n = static_cast<std::uint64_t>(ldc),
               k = static_cast<std::uint64_t>(pitch);
    const cudaDataType c_type = out == Fp8Out::fp32 ? CUDA_R_32F : CUDA_R_16BF;
    GPGPU_CUBLAS(cublasLtCreate(handle_.out()));
    GPGPU_CUBLAS(cublasLtMatmulDescCreate(op_.out(), CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t transposed = CUBLAS_OP_T;
    GPGPU_CUBLAS(cublasLtMatmulDescSetAttribute(op_.get(), CUBLASLT_MATMUL_DESC_TRANSA, &transposed, sizeof transposed));
    // The heuristic is asked for the descriptor the calls will use, scale pointers included (as
    // NVIDIA's FP8 sample for cuBLASLt does): here two device floats of the plan's; each call then
    // points at its operands' scales (16-byte aligned, as the call requires: Fp8Gemm::kScaleStride).
    set_scales(scales_for_heuristic_.get(), scales_for_heuristic_.get() + Fp8Gemm::kScaleStride);
    GPGPU_CUBLAS(cublasLtMatrixLayoutCreate(bt_layout_.out(), CUDA_R_8F_E4M3, k, n, pitch));
    GPGPU_CUBLAS(cublasLtMatrixLayoutCreate(a_layout_.out(), CUDA_R_8F_E4M3, k, m, pitch));
    GPGPU_CUBLAS(cublasLtMatrixLayoutCreate(c_layout_.out(), c_type, n, m, ldc));
    candidates_ = bc::lt_algorithms(handle_.get(), op_.get(), bt_layout_.get(), a_layout_.get(), c_layout_.get(), candidates);
  }

  void operator()(const Fp8Operands& o) {
    set_scales(o.scale_b, o.scale_a);  // cuBLASLt's A is our Bᵀ, its B our A
    const float one = 1, zero = 0;
    const cublasLtMatmulHeuristicResult_t& h = candidates_[chosen_];
    GPGPU_CUBLAS(cublasLtMatmul(handle_.get(), op_.get(), &one, o.bt, bt_layout_.get(), o.a, a_layout_.get(), &zero, o.c,
                                c_layout_.get(), o.c, c_layout_.get(), &h.algo, workspace_.get(), h.workspaceSize, nullptr));
  }

  /// Times every candidate on the operands (one warm-up call, then kTimedCalls between CUDA
  /// events) and keeps the fastest: the best of the heuristic's top candidates, chosen once.
  void choose_fastest(const Fp8Operands& o) {
    constexpr int kTimedCalls = 5;
    gpgpu::cuda::EventTimer timer;
    double best = 0;
    std::size_t fastest = 0;
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
      chosen_ = i;
      (*this)(o);
      timer.start();
      for (int c = 0; c < kTimedCalls; ++c) (*this)(o);
      timer.stop();
      if (i == 0 || timer.seconds() < best) {
        best = timer.seconds();
        fastest = i;
      }
    }
    chosen_ = fastest;
  }

  [[nodiscard]] std::size_t candidates() const { return candidates_.size(); }
  [[nodiscard]] std::size_t chosen() const { return chosen_; }

 private:
  /// The operation's scale pointers (device floats), read by the library at every call.
  void set_scales(const float* its_a, const float* its_b) {
    GPGPU_CUBLAS(cublasLtMatmulDescSetAttribute(op_.get(), CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &its_a, sizeof its_a));
    GPGPU_CUBLAS(cublasLtMatmulDescSetAttribute(op_.get(), CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &its_b, sizeof its_b));
  }

  LtHandle handle_;
  LtMatmulDesc op_;
  LtLayout a_layout_, bt_layout_, c_layout_;
  std::vector<cublasLtMatmulHeuristicResult_t> candidates_;
  std::size_t chosen_ = 0;
  gpgpu::cuda::DeviceBuffer<float> scales_for_heuristic_;
  gpgpu::cuda::DeviceBuffer<unsigned char> workspace_;
};
//! [cublaslt_fp8_plan]

/// The heuristic's top candidates the "best" rows time.
constexpr int kFp8Candidates = 8;

/// What each FP8 peer row is: C's type, the heuristic's choice or the best of its top candidates,
/// and whether every timed call quantises (the conversion's own row).
struct Fp8Row {
  const char* name;
  Fp8Out out;
  bool fastest_of_candidates;
  bool quantise_every_call;
  const char* description;
};

std::unique_ptr<gpgpu::blas::GemmOperation> make_fp8(const Fp8Row& row, const Dims& d) {
  auto plan = std::make_shared<LtFp8Matmul>(d, row.out, row.fastest_of_candidates ? kFp8Candidates : 1);
  const bool padded = d.m % 16 != 0 || d.n % 16 != 0 || d.k % 16 != 0;
  std::string launch = "cublasLtMatmul(T, N) on E4M3 A and B^T, scale per tensor (A_SCALE/B_SCALE_POINTER), CUBLAS_COMPUTE_32F, " +
                       std::string(padded ? "the product zero-padded to " + std::to_string(Fp8Gemm::pitch_for(d.m)) + " x " +
                                                std::to_string(Fp8Gemm::pitch_for(d.n)) + " x " + std::to_string(Fp8Gemm::pitch_for(d.k)) +
                                                " (cuBLASLt FP8 takes multiples of 16), "
                                          : "") +
                       std::string(row.fastest_of_candidates ? "the fastest of the heuristic's first " + std::to_string(plan->candidates()) +
                                                                   " algorithms"
                                                             : "the heuristic's first algorithm");
  Fp8Gemm::Preparation choose;
  if (row.fastest_of_candidates)
    choose = {"the fastest algorithm timed", [plan](const Fp8Operands& o) { plan->choose_fastest(o); }};
  return std::make_unique<Fp8Gemm>(d, row.out, [plan](const Fp8Operands& o) { (*plan)(o); }, launch,
                                   row.quantise_every_call ? Fp8Gemm::Quantising::every_call : Fp8Gemm::Quantising::once,
                                   std::move(choose));
}

constexpr Fp8Row kFp8Rows[] = {
    {"cublaslt_fp8", Fp8Out::fp32, false, false, "cuBLASLt FP8 (E4M3, scale per tensor, TN), heuristic algorithm, FP32 C"},
    {"cublaslt_fp8_best", Fp8Out::fp32, true, false, "the same, the fastest of the heuristic's top candidates"},
    {"cublaslt_fp8_bf16c", Fp8Out::bf16, false, false, "cuBLASLt FP8 (E4M3, scale per tensor, TN), heuristic algorithm, BF16 C"},
    {"cublaslt_fp8_bf16c_best", Fp8Out::bf16, true, false, "the same, the fastest of the heuristic's top candidates"},
    {"cublaslt_fp8_quantising", Fp8Out::bf16, false, true,
     "cublaslt_fp8_bf16c with A and B quantised inside every timed call: what the conversion costs"},
};

gpgpu::blas::GemmVariant fp8_variant(const Fp8Row& row) {
  gpgpu::blas::GemmVariant v =
      tensor_core_variant(row.name, row.description, "chapters/10c_fp8_tensor_cores/cublaslt_variants.cpp", Input::fp8,
                          {9, false, "FP8 tensor cores (cuBLASLt's E4M3 kernels) are run here on compute capability 9.0 and later"});
  v.bf16_c = row.out == Fp8Out::bf16;
  v.info.timer = "CUDA events (cuBLASLt on the default stream)";
  v.library = true;
  v.make = [&row](const gpgpu::blas::GemmSize& s, gpgpu::Session&) { return make_fp8(row, s.dims); };
  return v;
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> cublaslt_variants() {
  std::vector<gpgpu::blas::GemmVariant> v{bc::library_variant(
      "cublaslt_bf16", "cuBLASLt matmul on BF16 inputs (rounded once), FP32 sums: the BF16 rate FP8 is to double",
      "problems/blas/cuda/src/cublaslt_gemm.cpp", Input::bf16, "cuBLASLt", bc::cublaslt_gemm)};
  for (const Fp8Row& row : kFp8Rows) v.push_back(fp8_variant(row));
  return v;
}

}  // namespace ch10c
