/// @file cublas.hpp
/// @brief cuBLAS, the library a user would call, beside our kernels: its checked-call macro and its
/// handle, for the chapters that link CUDA::cublas (09's geam, 10's GEMM, 12's level 1-3 routines).
///
/// Header-only, so that the CUDA layer itself does not depend on cuBLAS: a chapter that finds no
/// CUDA::cublas leaves its cuBLAS variants out and never includes this file.
#pragma once
#include <string>

#include <cublas_v2.h>

#include "gpgpu/errors.hpp"

namespace gpgpu::cuda {

/// Throws ApiError naming the call, file, line and cuBLAS's own name and message for a failed status.
inline void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw ApiError(describe_failed_call(call, file, line,
                                      std::string(cublasGetStatusName(status)) + ": " + cublasGetStatusString(status)));
}

}  // namespace gpgpu::cuda

/// GPGPU_CUBLAS(cublasSgemm(...)): the call, checked.
#define GPGPU_CUBLAS(call) ::gpgpu::cuda::cublas_check((call), #call, __FILE__, __LINE__)

namespace gpgpu::cuda {

/// Owns a cuBLAS handle on the default stream (where the chapters' CUDA events are), in the default
/// math mode: strict FP32, no TF32 unless a call asks for it by its compute type.
class CublasHandle {
 public:
  CublasHandle() {
    GPGPU_CUBLAS(cublasCreate(&handle_));
    GPGPU_CUBLAS(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
  }
  ~CublasHandle() { (void)cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  [[nodiscard]] cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace gpgpu::cuda
