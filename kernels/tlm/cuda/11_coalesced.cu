// Chapter 11, the paper's coalesced kernels (sec. IV, Fig. 6): the same scatter and connect as
// 11_aos.cu (two_kernel_step.cuh), on the paper's layout: twelve arrays grouped by link line, x
// rows in segments of 64 nodes, blocks of 64 threads (scn_device.cuh, SegmentedAddress). A warp's
// load of pulse p is 32 consecutive floats: 128 bytes, 4 sectors, every byte used.
#include "gpgpu/cuda/check.hpp"
#include "two_kernel_step.cuh"

namespace gpgpu::tlm::cuda {

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernels on the CPU
void launch_scatter_coalesced(float* pulses, const StepArgs& a, int block, cudaStream_t stream) {
  tlm_scatter<<<grid_for(a.extent, block), block, 0, stream>>>(pulses, SegmentedAddress{a.pitch, a.extent.ny, a.plane}, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_scatter (coalesced)");
}

void launch_connect_coalesced(float* pulses, const StepArgs& a, int block, cudaStream_t stream) {
  tlm_connect<<<grid_for(a.extent, block), block, 0, stream>>>(pulses, SegmentedAddress{a.pitch, a.extent.ny, a.plane}, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_connect (coalesced)");
}
#endif

}  // namespace gpgpu::tlm::cuda
