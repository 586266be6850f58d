// Chapter 11, past the paper: the fused step (fused_step.cuh) with pulses stored as floats.
#include "fused_step.cuh"
#include "gpgpu/cuda/check.hpp"

namespace gpgpu::tlm::cuda {

//! [float_storage]
template <>
struct PulseStorage<float> {
  __device__ __forceinline__ static float load(float x) { return x; }
  __device__ __forceinline__ static float store(float v) { return v; }
};
//! [float_storage]

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel on the CPU
void launch_fused(const float* in, float* out, const StepArgs& a, int block, cudaStream_t stream) {
  tlm_fused<<<grid_for(a.extent, block), block, 0, stream>>>(in, out, SegmentedAddress{a.pitch, a.extent.ny, a.plane}, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_fused");
}
#endif

}  // namespace gpgpu::tlm::cuda
