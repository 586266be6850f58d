/// @file cuda_specs.hpp
/// @brief Chapter 11's CUDA variants as the chapter registers them (cuda_variants.cpp) and the
/// tests build them: cuda_aos, cuda_coalesced, cuda_fused, cuda_fused_half.
#pragma once
#include "cuda_tlm.hpp"
#include "gpgpu/tlm/solver.hpp"

namespace ch11 {

gpgpu::tlm::VariantSpec cuda_variant(CudaKernels kernels);

}  // namespace ch11
