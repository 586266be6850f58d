/// @file cuda_variants.hpp
/// @brief Chapter 09's CUDA host code: the operands in device memory, a call (one of the kernels of
/// kernels/matrix/cuda, cudaMemcpy, cuBLAS) timed by CUDA events, the result back; the parts of a
/// CUDA variant that cublas_variants.cpp and the tests share.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "gpgpu/cuda/buffers.hpp"
#include "variants.hpp"

namespace ch09 {

/// The operands and the result of one operation in device memory, and the call that computes it.
/// upload() copies A (and B for an add) and fills the result with the poison; run() enqueues the
/// call `calls` times on the default stream between two CUDA events.
template <typename T>
class DeviceMatrices final : public gpgpu::matrix::Operation {
 public:
  /// Called with the device addresses of A, B (nullptr unless the operation is an add) and the result.
  using Call = std::function<void(const T* a, const T* b, T* out)>;
  /// Called by upload() with the device addresses of A and the result, before any call: what a call
  /// needs to know of its buffers and must not spend timed launches on (TMA's tensor maps).
  using Prepare = std::function<void(const T* a, T* out)>;
  DeviceMatrices(gpgpu::matrix::Op op, gpgpu::matrix::Shape shape, Call call, std::string launch, Prepare prepare = {});

  void upload(const gpgpu::matrix::Inputs& in) override;
  double run(int calls) override;
  [[nodiscard]] gpgpu::matrix::HostMatrix download() override;
  [[nodiscard]] std::string launch() const override { return launch_; }

 private:
  gpgpu::matrix::Op op_;
  gpgpu::matrix::Shape shape_;
  Call call_;
  std::string launch_;
  Prepare prepare_;
  gpgpu::cuda::DeviceBuffer<T> a_, b_, out_;
  gpgpu::cuda::EventTimer timer_;
};

/// The CUDA part of a variant: name, description, kernel file, the paper's name, backend and
/// opener, timer (CUDA events), operation, and a check_fits that refuses operands the device's free
/// memory cannot hold (UsageError). The caller adds make and, where needed, limitation.
gpgpu::matrix::Variant cuda_variant(std::string name, gpgpu::matrix::Op op, std::string description,
                                    std::string source, std::string paper_name = "", bool in_all = true);

/// The CUDA kernels' reason not to run `shape` (a grid taller than gridDim.y allows, a printed
/// kernel's square-only width), or nullopt: what cuda_variants() puts into their limitation.
std::optional<std::string> cuda_limitation(const std::string& variant, const gpgpu::matrix::Shape& shape);

}  // namespace ch09
