/// @file cuda_gemm.hpp
/// @brief Chapter 10's CUDA host code: A, B and C in device memory, a product (one of the kernels
/// of kernels/blas/cuda, or cuBLAS) timed by CUDA events, C back; the records of the CUDA variants;
/// the FMA peak of the GPU.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "gpgpu/blas/kernel.hpp"
#include "gpgpu/cuda/buffers.hpp"

namespace ch10 {

/// A, B and C of one product in device memory, and the call that computes it (or several, one per
/// compiled configuration, for --tune). upload() copies A and B and fills C with the poison; run()
/// enqueues the current call `calls` times on the default stream between two CUDA events.
template <typename T>
class DeviceGemm final : public gpgpu::blas::Kernel {
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

/// The CUDA part of a variant's record (backend, opener, timer, a check_fits that refuses operands
/// the device's free memory cannot hold). The caller adds make and limitation.
gpgpu::blas::VariantSpec cuda_variant(std::string name, std::string description, std::string source,
                                      std::string paper_name = "");

/// The kernels of kernels/blas/cuda in file order: cuda_naive, cuda_tile16, cuda_blocktile_1d,
/// cuda_blocktile_2d, cuda_vectorized, cuda_warptile, cuda_double_buffer, cuda_tf32_wmma,
/// cuda_three_stage (its kernels configurable: kernels/blas/cuda/gemm_args.hpp).
std::vector<gpgpu::blas::VariantSpec> cuda_variants();

/// The FP32 or FP64 FMA peak of the session's GPU, measured now by kernels/blas/cuda/10_fma_peak.cu.
gpgpu::blas::Peak cuda_fma_peak(gpgpu::blas::ElementType type, gpgpu::Session& session);

}  // namespace ch10
