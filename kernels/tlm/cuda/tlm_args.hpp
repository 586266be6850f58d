/// @file tlm_args.hpp
/// @brief What the TLM kernels of chapter 11 receive for one step, and their launch functions.
/// The host code (chapters/11_tlm_coalesced/cuda_tlm.cpp) fills StepArgs and calls the launchers.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "gpgpu/tlm/scn.hpp"

namespace gpgpu::tlm::cuda {

/// One step's arguments, by value: the irises travel in the kernel's parameter space and are read
/// through the constant cache, as the paper's boundary table in constant memory (Fig. 10).
struct StepArgs {
  Extent extent;            ///< nodes along x, y, z
  IrisTable irises;         ///< the filter's irises (count 0 otherwise)
  int pitch = 0;            ///< segmented layout: elements per x row (nx rounded up to 64)
  int plane = 0;            ///< segmented layout: elements per port array (pitch·ny·nz)
  int source_node = -1;     ///< node (k·ny + j)·nx + i where the source adds its value, -1: none
  int source_polarisation = 2;
  float source_value = 0;   ///< what the source adds this step (scn.hpp, inject())
  int probe_node = -1;      ///< node whose fields this step records, -1: none
  float* probe = nullptr;   ///< where: kProbeValues floats for this step
};

/// Blocks of `block` threads along x, one block row per y and z (gridDim.y, .z <= 65535: the mesh
/// check, mesh.cpp, refuses larger ny and nz).
inline dim3 grid_for(const Extent& e, int block) {
  return dim3(static_cast<unsigned>((e.nx + block - 1) / block), static_cast<unsigned>(e.ny), static_cast<unsigned>(e.nz));
}

// The paper's two kernels per step, scatter then connect, in place on one array:
void launch_scatter_aos(float* pulses, const StepArgs& a, int block, cudaStream_t stream);        // 11_aos.cu
void launch_connect_aos(float* pulses, const StepArgs& a, int block, cudaStream_t stream);        // 11_aos.cu
void launch_scatter_coalesced(float* pulses, const StepArgs& a, int block, cudaStream_t stream);  // 11_coalesced.cu
void launch_connect_coalesced(float* pulses, const StepArgs& a, int block, cudaStream_t stream);  // 11_coalesced.cu
// Past the paper, one kernel per step from the reflected pulses `in` into `out`:
void launch_fused(const float* in, float* out, const StepArgs& a, int block, cudaStream_t stream);         // 11_fused.cu
void launch_fused_half(const __half* in, __half* out, const StepArgs& a, int block, cudaStream_t stream);  // 11_fused_half.cu

}  // namespace gpgpu::tlm::cuda
