/// @file cuda_variants.hpp
/// @brief Chapter 11's CUDA variants and their host code: the pulses in device memory (the layout
/// of the kernel), the launch loop timed by CUDA events, the source and probe of each step, and the
/// read-back. Without CUDA in the build, cuda_variants() is the note that says why.
#pragma once
#include <vector>

#include "gpgpu/tlm/solver.hpp"

#if GPGPU_BUILT_CUDA
#include <span>
#include <string>

#include <cuda_fp16.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/tlm/layouts.hpp"
#include "tlm/cuda/tlm_args.hpp"

namespace ch11 {

/// Which kernels a CudaSolver launches.
enum class CudaKernels {
  aos,         ///< 11_01_scatter_connect.cu: scatter, connect; array of structures (the paper's uncoalesced kernel)
  coalesced,   ///< 11_01_scatter_connect.cu: scatter, connect; the paper's segmented layout
  fused,       ///< 11_02_fused.cu: one pull-scatter-write kernel, FP32 pulses
  fused_half,  ///< 11_02_fused.cu: the same, half-precision pulses
  fused_x2,       ///< 11_03_fused_vector.cu: the fused step, 2 nodes per thread, FP32 pulses (float2 words)
  fused_x4,       ///< 11_03_fused_vector.cu: 4 nodes per thread, FP32 pulses (float4 words)
  fused_half_x2,  ///< 11_03_fused_vector.cu: 2 nodes per thread, half-precision pulses (4-byte words)
  fused_half_x4,  ///< 11_03_fused_vector.cu: 4 nodes per thread, half-precision pulses (8-byte words)
  fused_half_loads_first,  ///< 11_04_fused_loads_first.cu: fused_half with its loads issued before any conversion
};

/// The CUDA variants, in run order (cuda_variants.cpp): cuda_aos, cuda_coalesced, cuda_fused,
/// cuda_fused_half, cuda_fused_x2, cuda_fused_x4, cuda_fused_half_x2, cuda_fused_half_x4,
/// cuda_fused_half_loads_first.
std::vector<gpgpu::tlm::Variant> cuda_variants();
/// The one of them that runs `kernels`.
gpgpu::tlm::Variant cuda_variant(CudaKernels kernels);

class CudaSolver final : public gpgpu::tlm::Solver {
 public:
  CudaSolver(const gpgpu::tlm::Setup& setup, CudaKernels kernels);
  void reset(std::span<const float> incident) override;
  double run(int steps) override;
  [[nodiscard]] std::vector<float> pulses() override;
  [[nodiscard]] std::vector<float> probe() override;
  [[nodiscard]] std::string launch() const override;

 private:
  [[nodiscard]] bool fused() const { return kernels_ != CudaKernels::aos && kernels_ != CudaKernels::coalesced; }
  [[nodiscard]] gpgpu::tlm::cuda::StepArgs args(int n);
  void step(int n);

  const gpgpu::tlm::Setup& setup_;
  CudaKernels kernels_;
  gpgpu::tlm::PulseLayout layout_;
  gpgpu::cuda::DeviceBuffer<float> pulses_[2];  ///< FP32 kernels (the paper's step uses [0] only)
  gpgpu::cuda::DeviceBuffer<__half> halves_[2];  ///< fused_half
  gpgpu::cuda::DeviceBuffer<float> probe_;
  gpgpu::cuda::EventTimer timer_;
  int current_ = 0;  ///< the fused kernels: which buffer holds the last step's reflected pulses
  int step_ = 0;
};

/// Device bytes a CudaSolver allocates for `kernels` on `mesh` with `steps` probe steps.
double cuda_device_bytes(CudaKernels kernels, const gpgpu::tlm::Mesh& mesh, int steps);

}  // namespace ch11

#else
namespace ch11 {
inline gpgpu::NotBuilt cuda_variants() { return {gpgpu::Backend::cuda, GPGPU_WHY_CUDA}; }
}  // namespace ch11
#endif
