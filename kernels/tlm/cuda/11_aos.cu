// Chapter 11, the paper's uncoalesced kernels (sec. IV, Fig. 5): the scatter and connect of
// two_kernel_step.cuh on an array of structures, a node's twelve pulses side by side. A warp's load
// of pulse p touches 32 floats 48 bytes apart: 32 sectors of 32 B in 12 cache lines (1536 bytes),
// for 128 useful bytes (the other eleven loads of the same nodes may find those lines in L1).
#include "gpgpu/cuda/check.hpp"
#include "two_kernel_step.cuh"

namespace gpgpu::tlm::cuda {
namespace {

//! [aos_address]
/// Node (k·ny + j)·nx + i, its pulse p at 12·node + p.
struct AosAddress {
  int nx, ny;
  __device__ __forceinline__ int operator()(int p, const NodeIndex& n) const {
    return ((n.k * ny + n.j) * nx + n.i) * kPorts + p;
  }
};
//! [aos_address]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernels on the CPU
void launch_scatter_aos(float* pulses, const StepArgs& a, int block, cudaStream_t stream) {
  tlm_scatter<<<grid_for(a.extent, block), block, 0, stream>>>(pulses, AosAddress{a.extent.nx, a.extent.ny}, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_scatter (array of structures)");
}

void launch_connect_aos(float* pulses, const StepArgs& a, int block, cudaStream_t stream) {
  tlm_connect<<<grid_for(a.extent, block), block, 0, stream>>>(pulses, AosAddress{a.extent.nx, a.extent.ny}, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_connect (array of structures)");
}
#endif

}  // namespace gpgpu::tlm::cuda
