/// @file cuda_twin.hpp
/// @brief The CUDA kernel each OpenCL variant ports, run on the same GPU in the same run, for
/// `ch08_opencl_port --compare-cuda`. Compiled only in a build that has the CUDA kernels (CMake
/// target gpgpu::cuda_jacobi, kernels/cuda/); it uses their plain C++ interface,
/// gpgpu/cuda_jacobi.hpp, so this chapter needs no CUDA compiler of its own.
#pragma once
#include <string>

#include "gpgpu/experiment.hpp"
#include "ported_variants.hpp"

namespace ch08 {

/// Makes CUDA device `index` current and returns its name. Throws BackendUnavailable without a
/// CUDA device, UsageError for an index that does not exist.
std::string open_cuda_device(int index);

/// What the CUDA twin of a variant produced.
struct CudaTwinRun {
  gpgpu::VariantResult result;  ///< final iterate and CUDA-event times, as the OpenCL variant's
  std::string launch;           ///< grid, block and layout the CUDA solver used
};

/// Runs v.cuda_variant from the experiment's initial guess with the experiment's iterations,
/// warm-ups and repeats, on the current CUDA device, in blocks of `block` threads.
CudaTwinRun run_cuda_twin(const Variant& v, const gpgpu::JacobiExperiment& exp, int block);

}  // namespace ch08
