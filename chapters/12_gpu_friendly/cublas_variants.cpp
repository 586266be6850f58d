// cuBLAS on chapter 12's row-major operands. cuBLAS reads matrices column by column, and the bytes
// of a row-major m x n matrix are those of its n x m transpose in column-major order (leading
// dimension n). So row-major y = A x is cuBLAS's y = (Aᵀ)ᵀ x: gemv(T) on the n x m column-major
// matrix; y = Aᵀ x is gemv(N) on it; and row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ (chapter 10's
// cublas_variants.cpp). beta = 0: the poisoned result is never read. Default math mode: no TF32.
#include <memory>
#include <string>

#include <cublas_v2.h>

#include "gpgpu/cuda/cublas.hpp"

#include "cuda_variants.hpp"
#include "gpgpu/errors.hpp"
#include "variants.hpp"

namespace ch12 {
namespace {

using gpgpu::blas::Case;
using gpgpu::blas::Routine;

// The chapter's name for the shared checked call (the README quotes it).
#define CH12_CUBLAS(call) GPGPU_CUBLAS(call)

/// A cuBLAS handle on the default stream (where DeviceRoutine's events are), strict FP32.
using Handle = std::shared_ptr<gpgpu::cuda::CublasHandle>;
Handle make_handle() { return std::make_shared<gpgpu::cuda::CublasHandle>(); }

//! [cublas_calls]
void call(Routine r, cublasHandle_t h, const DeviceOperands& d) {
  const float one = 1, zero = 0;
  switch (r) {
    case Routine::saxpy: CH12_CUBLAS(cublasSaxpy(h, d.n, &d.alpha, d.x, 1, d.y, 1)); break;
    case Routine::sscal: CH12_CUBLAS(cublasSscal(h, d.n, &d.alpha, d.x, 1)); break;
    case Routine::sgemv: CH12_CUBLAS(cublasSgemv(h, CUBLAS_OP_T, d.n, d.m, &one, d.a, d.n, d.x, 1, &zero, d.out, 1)); break;
    case Routine::sgemv_t: CH12_CUBLAS(cublasSgemv(h, CUBLAS_OP_N, d.n, d.m, &one, d.a, d.n, d.x, 1, &zero, d.out, 1)); break;
    case Routine::sgemm:
      CH12_CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, d.n, d.m, d.k, &one, d.b, d.n, d.a, d.k, &zero, d.out, d.n));
      break;
    case Routine::conv2d: throw std::logic_error("cuBLAS has no convolution");
  }
}
//! [cublas_calls]

gpgpu::blas::RoutineVariant variant(const char* name, Routine r, const char* launch) {
  gpgpu::blas::RoutineVariant v = cuda_variant(name, r, std::string("cuBLAS ") + launch, "chapters/12_gpu_friendly/cublas_variants.cpp");
  v.info.timer = "CUDA events (cuBLAS on the default stream)";
  v.library = true;
  v.info.paper_name = "GPU (CUBLAS)";
  v.make = [r, launch](const Case& c, gpgpu::Session&) -> std::unique_ptr<gpgpu::blas::RoutineOperation> {
    Handle handle = make_handle();
    return std::make_unique<DeviceRoutine>(c, [handle, r](const DeviceOperands& d) { call(r, handle->get(), d); }, launch);
  };
  return v;
}

}  // namespace

std::vector<gpgpu::blas::RoutineVariant> cublas_variants() {
  return {variant("cublas_saxpy", Routine::saxpy, "cublasSaxpy"), variant("cublas_sscal", Routine::sscal, "cublasSscal"),
          variant("cublas_sgemv", Routine::sgemv, "cublasSgemv(T) on the column-major view"),
          variant("cublas_sgemv_t", Routine::sgemv_t, "cublasSgemv(N) on the column-major view"),
          variant("cublas_sgemm", Routine::sgemm, "cublasSgemm(N, N), column-major view Cᵀ = Bᵀ Aᵀ")};
}

}  // namespace ch12
