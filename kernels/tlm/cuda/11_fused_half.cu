// Chapter 11, past the paper: the fused step (fused_step.cuh) with pulses stored in half precision
// (IEEE binary16: 11 significant bits, 2 bytes) and computed in FP32: 48 B per node and step.
// Rounding to nearest on every store is the only new error (reference.hpp, tolerance()).
#include "fused_step.cuh"
#include "gpgpu/cuda/check.hpp"

namespace gpgpu::tlm::cuda {

//! [half_storage]
template <>
struct PulseStorage<__half> {
  __device__ __forceinline__ static float load(__half x) { return __half2float(x); }
  __device__ __forceinline__ static __half store(float v) { return __float2half_rn(v); }
};
//! [half_storage]

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel on the CPU
void launch_fused_half(const __half* in, __half* out, const StepArgs& a, int block, cudaStream_t stream) {
  tlm_fused<<<grid_for(a.extent, block), block, 0, stream>>>(in, out, SegmentedAddress{a.pitch, a.extent.ny, a.plane}, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_fused (half storage)");
}
#endif

}  // namespace gpgpu::tlm::cuda
