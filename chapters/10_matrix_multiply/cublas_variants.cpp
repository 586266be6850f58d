// cuBLAS GEMM on chapter 10's row-major matrices. cuBLAS stores matrices column by column; the
// bytes of a row-major m x n matrix are those of its transpose in column-major order. So row-major
// C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: gemm(N, N) with the operands swapped, m and n swapped, and
// the leading dimensions the row lengths (n for B and C, k for A). beta = 0: C's old contents (the
// poison) are not read.
#include <memory>
#include <optional>
#include <string>

#include <cublas_v2.h>

#include "gpgpu/cuda/cublas.hpp"
#include "gpgpu/cuda/opener.hpp"

#include "gpgpu/blas/cuda/device_gemm.hpp"
#include "gpgpu/errors.hpp"
#include "variants.hpp"

namespace ch10 {
namespace {

using gpgpu::blas::Dims;
using gpgpu::blas::ElementType;
using gpgpu::blas::cuda::cuda_variant;
using gpgpu::blas::cuda::DeviceGemm;

// The chapter's name for the shared checked call (the README quotes it).
#define CH10_CUBLAS(call) GPGPU_CUBLAS(call)
using Handle = gpgpu::cuda::CublasHandle;

enum class Flavour { sgemm, sgemm_tf32, dgemm };

//! [cublas_gemm]
std::unique_ptr<gpgpu::blas::GemmOperation> make(Flavour f, const Dims& d) {
  auto handle = std::make_shared<Handle>();
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
  if (f == Flavour::dgemm) {
    auto call = [handle, m, n, k](const double* a, const double* b, double* c) {
      const double one = 1, zero = 0;
      CH10_CUBLAS(cublasDgemm(handle->get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n));
    };
    return std::make_unique<DeviceGemm<double>>(d, call, "cublasDgemm(N, N), column-major view Cᵀ = Bᵀ Aᵀ");
  }
  const cublasComputeType_t compute = f == Flavour::sgemm ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_FAST_TF32;
  auto call = [handle, m, n, k, compute](const float* a, const float* b, float* c) {
    const float one = 1, zero = 0;
    CH10_CUBLAS(cublasGemmEx(handle->get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_32F, n, a, CUDA_R_32F, k,
                             &zero, c, CUDA_R_32F, n, compute, CUBLAS_GEMM_DEFAULT));
  };
  return std::make_unique<DeviceGemm<float>>(
      d, call, std::string("cublasGemmEx(N, N), ") + (f == Flavour::sgemm ? "CUBLAS_COMPUTE_32F" : "CUBLAS_COMPUTE_32F_FAST_TF32"));
}
//! [cublas_gemm]

gpgpu::blas::GemmVariant variant(const char* name, Flavour f, const char* description) {
  gpgpu::blas::GemmVariant v = cuda_variant(name, description, "chapters/10_matrix_multiply/cublas_variants.cpp");
  v.info.timer = "CUDA events (cuBLAS on the default stream)";
  v.library = true;
  v.tf32 = f == Flavour::sgemm_tf32;
  v.fp64_tensor_cores = f == Flavour::dgemm;
  v.make = [f](const gpgpu::blas::GemmSize& s, gpgpu::Session&) { return make(f, s.dims); };
  v.limitation = [f](const gpgpu::blas::GemmSize& s, gpgpu::Session& session) -> std::optional<std::string> {
    if ((f == Flavour::dgemm) != (s.type == ElementType::f64))
      return f == Flavour::dgemm ? "double only (the float run has SGEMM)" : "float only (the double run has DGEMM)";
    if (f == Flavour::sgemm_tf32 && gpgpu::cuda::device_info(session).cc_major < 8)
      return "TF32 tensor cores need compute capability 8.0";
    return std::nullopt;
  };
  return v;
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> cublas_variants() {
  return {variant("cublas_sgemm", Flavour::sgemm, "cuBLAS SGEMM, strict FP32 (no tensor cores)"),
          variant("cublas_sgemm_tf32", Flavour::sgemm_tf32, "cuBLAS SGEMM on TF32 tensor cores"),
          variant("cublas_dgemm", Flavour::dgemm, "cuBLAS DGEMM (FP64 tensor cores on sm_80 and sm_90)")};
}

}  // namespace ch10
