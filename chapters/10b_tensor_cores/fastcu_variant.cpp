// A third party's kernel as a row of chapter 10b: fast.cu's last BF16 GEMM (pranjalssh/fast.cu, MIT
// licence), built from its own source where CMake was given a copy (GPGPU_FASTCU_DIR), behind
// scripts/device/peers/fastcu_kernel.hpp. Not the chapter's kernel: it is here so that step 11
// (tma_store_bf16_bf16c) and cuBLAS with BF16 C (cublas_bf16_bf16c) are measured beside it by the
// same loop, on the same inputs (rounded to BF16 once, by the same kernel), and judged against the
// same FP64 reference by the same BF16-C bound.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fastcu_kernel.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/blas/cuda/tensor_core_gemm.hpp"
#include "variants.hpp"

namespace ch10b {
namespace {

using gpgpu::blas::Dims;
using gpgpu::blas::cuda::Bf16;
using gpgpu::blas::cuda::Input;
using gpgpu::blas::cuda::TensorCoreGemm;
using gpgpu::blas::cuda::tensor_core_variant;
using gpgpu::blas::cuda::transpose_on_gpu;

// fast.cu's convention: its first operand X (M x K) and second Y (N x K) both row-major, and C
// column-major, C_fc[i + j·M] = Σ_l X[i][l]·Y[j][l]. Ours: A (m x k) and B (k x n) row-major, C
// row-major, C[j][i] at j·n + i. Given X = Bᵀ (n x k row-major, Bᵀ[i][l] = B[l][i], made once by the
// chapter's transpose, as the TMA steps read it) and Y = A (m x k), so M = n and N = m:
//   C_fc[i + j·n] = Σ_l Bᵀ[i][l]·A[j][l] = Σ_l A[j][l]·B[l][i] = C[j][i],
// which is our C, row-major, at the very index. (Its square sizes make M = N = K = m = n = k.)
std::unique_ptr<gpgpu::blas::GemmOperation> make(const Dims& d) {
  auto bt = std::make_shared<gpgpu::cuda::DeviceBuffer<Bf16>>(static_cast<std::size_t>(d.n * d.k));
  const int n = static_cast<int>(d.n);
  auto call = [bt, n](const Bf16* a, const Bf16*, Bf16* c) { gpgpu::peers::fastcu_bf16_gemm(n, bt->get(), a, c); };
  TensorCoreGemm<Bf16, Bf16>::Preparation p{"B transposed on the GPU", [bt, d](const Bf16*, const Bf16* b) {
                                              transpose_on_gpu(b, bt->get(), static_cast<int>(d.k), static_cast<int>(d.n));
                                            }};
  return std::make_unique<TensorCoreGemm<Bf16, Bf16>>(
      d, call,
      "fast.cu runKernel12(n, n, n, B^T, A, C): 128 persistent blocks of 384 threads in clusters of 2, tiles 128 x 256, "
      "C by TMA stores",
      std::move(p));
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> fastcu_variants() {
  gpgpu::blas::GemmVariant v = tensor_core_variant(
      "fastcu_bf16_bf16c",
      "a third party's kernel, not the chapter's: fast.cu's last BF16 GEMM (pranjalssh/fast.cu, MIT), built from its source, "
      "BF16 inputs, FP32 sums, C rounded to BF16 (beside step 11's BF16 C)",
      "scripts/device/peers/fastcu_kernel.cu with fast.cu's examples/matmul/matmul_12.cuh", Input::bf16,
      {9, true, "fast.cu's kernel is sm_90a code (wgmma, TMA, clusters): it runs on compute capability 9.0 only"},
      [](const Dims& d) -> std::optional<std::string> {
        if (std::string why = gpgpu::peers::fastcu_refusal(d.m, d.n, d.k); !why.empty()) return why;
        return std::nullopt;
      });
  v.bf16_c = true;
  v.make = [](const gpgpu::blas::GemmSize& s, gpgpu::Session&) { return make(s.dims); };
  return {std::move(v)};
}

}  // namespace ch10b
