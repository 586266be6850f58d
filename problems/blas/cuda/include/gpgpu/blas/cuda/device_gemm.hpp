/// @file device_gemm.hpp
/// @brief The CUDA host code of a product that chapters 10 and 10b both run: A, B and C in device
/// memory, a call (one of the kernels of kernels/blas/cuda, or a library's) timed by CUDA events, C
/// back; the CUDA part of a GEMM variant; and the line that prints a kernel's launch.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "blas/cuda/launchers.hpp"
#include "gpgpu/blas/operation.hpp"
#include "gpgpu/cuda/buffers.hpp"

namespace gpgpu::blas::cuda {

/// A, B and C of one product in device memory, and the call that computes it (or several, one per
/// compiled configuration, for --tune). upload() copies A and B and fills C with the poison; run()
/// enqueues the current call `calls` times on the default stream between two CUDA events.
template <typename T>
class DeviceGemm final : public GemmOperation {
 public:
  using Call = std::function<void(const T* a, const T* b, T* c)>;
  struct Configuration {
    std::string name;  ///< "256 x 128 tile, 16 x 8 per thread, 3 stages"
    Call call;
    std::string launch;
  };
  DeviceGemm(Dims dims, Call call, std::string launch);
  DeviceGemm(Dims dims, std::vector<Configuration> configurations);

  void upload(const Operands& in) override;
  double run(int calls) override;
  [[nodiscard]] HostMatrix download() override;
  [[nodiscard]] std::string launch() const override { return configurations_[current_].launch; }
  [[nodiscard]] std::vector<std::string> configurations() const override;
  void configure(std::size_t index) override;

 private:
  Dims dims_;
  std::vector<Configuration> configurations_;
  std::size_t current_ = 0;
  gpgpu::cuda::DeviceBuffer<T> a_, b_, c_;
  gpgpu::cuda::EventTimer timer_;
};

/// The CUDA part of a variant (backend, opener, timer, the GPU's FMA peak, a check_fits that
/// refuses operands the device's free memory cannot hold). The caller adds make and limitation.
GemmVariant cuda_variant(std::string name, std::string description, std::string source, std::string paper_name = "");

/// "grid X x Y of T threads, BM x BN of C per block": a kernel's launch on `dims` as the run prints it.
std::string launch_line(const Dims& dims, const GemmShape& shape);

}  // namespace gpgpu::blas::cuda
