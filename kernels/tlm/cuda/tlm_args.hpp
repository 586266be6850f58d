/// @file tlm_args.hpp
/// @brief What the TLM kernels of chapter 11 receive for one step, and their launch functions.
/// The host code (chapters/11_tlm_coalesced/cuda_variants.cpp) fills StepArgs and calls the launchers;
/// each kernel file sets its own block beside its launches.
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

/// The grid and block of a step's launches, for the run's description of them.
struct LaunchShape {
  dim3 grid, block;
};

// The paper's step, its scatter kernel then its connect kernel, in place on one array, on an array
// of structures or on the paper's coalesced layout (11_01_scatter_connect.cu):
LaunchShape paper_step_shape(const Extent& extent);
void launch_paper_step_aos(float* pulses, const StepArgs& a, cudaStream_t stream);
void launch_paper_step_coalesced(float* pulses, const StepArgs& a, cudaStream_t stream);
// Past the paper, one kernel per step from the reflected pulses `in` into `out`, stored as floats or
// halves (11_02_fused.cu):
LaunchShape fused_shape(const Extent& extent);
void launch_fused(const float* in, float* out, const StepArgs& a, cudaStream_t stream);
void launch_fused_half(const __half* in, __half* out, const StepArgs& a, cudaStream_t stream);
// The same step with 2 or 4 consecutive nodes of a row per thread, each load and store one aligned
// word of that many pulses (11_03_fused_vector.cu):
LaunchShape fused_vector_shape(const Extent& extent, int nodes_per_thread);
void launch_fused_vector(const float* in, float* out, int nodes_per_thread, const StepArgs& a, cudaStream_t stream);
void launch_fused_vector_half(const __half* in, __half* out, int nodes_per_thread, const StepArgs& a, cudaStream_t stream);
// The one-node half kernel with its twelve loads issued before any pulse is converted, in 11_02's
// launch shape (fused_shape) (11_04_fused_loads_first.cu):
void launch_fused_half_loads_first(const __half* in, __half* out, const StepArgs& a, cudaStream_t stream);

}  // namespace gpgpu::tlm::cuda
