/// @file cuda_tlm.hpp
/// @brief Chapter 11's CUDA host code: the pulses in device memory (the layout of the kernel), the
/// launch loop timed by CUDA events, the source and probe of each step, and the read-back.
#pragma once
#include <span>
#include <string>
#include <vector>

#include <cuda_fp16.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/tlm/layouts.hpp"
#include "gpgpu/tlm/solver.hpp"
#include "tlm/cuda/tlm_args.hpp"

namespace ch11 {

/// Which kernels a CudaSolver launches.
enum class CudaKernels {
  aos,         ///< 11_aos.cu: scatter, connect; array of structures (the paper's uncoalesced kernel)
  coalesced,   ///< 11_coalesced.cu: scatter, connect; the paper's segmented layout
  fused,       ///< 11_fused.cu: one pull-scatter-write kernel, FP32 pulses
  fused_half,  ///< 11_fused_half.cu: the same, half-precision pulses
};

/// The paper's thread block: 64 threads, one segment of a row (sec. IV).
inline constexpr int kBlock = 64;

class CudaSolver final : public gpgpu::tlm::Solver {
 public:
  CudaSolver(const gpgpu::tlm::Problem& problem, CudaKernels kernels, int block = kBlock);
  void reset(std::span<const float> incident) override;
  double run(int steps) override;
  [[nodiscard]] std::vector<float> pulses() override;
  [[nodiscard]] std::vector<float> probe() override;
  [[nodiscard]] std::string launch() const override;

 private:
  [[nodiscard]] bool fused() const { return kernels_ == CudaKernels::fused || kernels_ == CudaKernels::fused_half; }
  [[nodiscard]] gpgpu::tlm::cuda::StepArgs args(int n);
  void step(int n);

  const gpgpu::tlm::Problem& problem_;
  CudaKernels kernels_;
  int block_;
  gpgpu::tlm::PulseLayout layout_;
  gpgpu::cuda::DeviceBuffer<float> pulses_[2];  ///< FP32 kernels (the two-kernel step uses [0] only)
  gpgpu::cuda::DeviceBuffer<__half> halves_[2];  ///< fused_half
  gpgpu::cuda::DeviceBuffer<float> probe_;
  gpgpu::cuda::EventTimer timer_;
  int current_ = 0;  ///< the fused kernels: which buffer holds the last step's reflected pulses
  int step_ = 0;
};

/// Device bytes a CudaSolver allocates for `kernels` on `mesh` with `steps` probe steps.
double cuda_device_bytes(CudaKernels kernels, const gpgpu::tlm::Mesh& mesh, int steps);

}  // namespace ch11
