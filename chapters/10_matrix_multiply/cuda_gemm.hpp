/// @file cuda_gemm.hpp
/// @brief Chapter 10's CUDA host code: A, B and C in device memory, a product (one of the kernels
/// of kernels/blas/cuda, or cuBLAS) timed by CUDA events, C back. The CUDA variants that use it are
/// listed in cuda_gemm.cpp (our kernels) and cublas_gemm.cpp.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "blas/cuda/launchers.hpp"
#include "gpgpu/blas/operation.hpp"
#include "gpgpu/cuda/buffers.hpp"

namespace ch10 {

/// A, B and C of one product in device memory, and the call that computes it (or several, one per
/// compiled configuration, for --tune). upload() copies A and B and fills C with the poison; run()
/// enqueues the current call `calls` times on the default stream between two CUDA events.
template <typename T>
class DeviceGemm final : public gpgpu::blas::GemmOperation {
 public:
  using Call = std::function<void(const T* a, const T* b, T* c)>;
  struct Configuration {
    std::string name;  ///< "256 x 128 tile, 16 x 8 per thread, 3 stages"
    Call call;
    std::string launch;
  };
  DeviceGemm(gpgpu::blas::Dims dims, Call call, std::string launch);
  DeviceGemm(gpgpu::blas::Dims dims, std::vector<Configuration> configurations);

  void upload(const gpgpu::blas::Operands& in) override;
  double run(int calls) override;
  [[nodiscard]] gpgpu::blas::HostMatrix download() override;
  [[nodiscard]] std::string launch() const override { return configurations_[current_].launch; }
  [[nodiscard]] std::vector<std::string> configurations() const override;
  void configure(std::size_t index) override;

 private:
  gpgpu::blas::Dims dims_;
  std::vector<Configuration> configurations_;
  std::size_t current_ = 0;
  gpgpu::cuda::DeviceBuffer<T> a_, b_, c_;
  gpgpu::cuda::EventTimer timer_;
};

/// The CUDA part of a variant (backend, opener, timer, the GPU's FMA peak, a check_fits that
/// refuses operands the device's free memory cannot hold). The caller adds make and limitation.
gpgpu::blas::GemmVariant cuda_variant(std::string name, std::string description, std::string source,
                                      std::string paper_name = "");

/// "grid X x Y of T threads, BM x BN of C per block": a kernel's launch on `dims` as the run prints it
/// (chapter 10b's tensor-core kernels say it the same way).
std::string launch_line(const gpgpu::blas::Dims& dims, const gpgpu::blas::cuda::GemmShape& shape);

}  // namespace ch10
