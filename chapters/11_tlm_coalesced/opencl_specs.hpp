/// @file opencl_specs.hpp
/// @brief Chapter 11's OpenCL variants as the chapter registers them (opencl_variants.cpp) and the
/// tests build them: opencl_coalesced and opencl_fused, the ports of cuda_coalesced and cuda_fused.
#pragma once
#include "gpgpu/tlm/solver.hpp"
#include "opencl_tlm.hpp"

namespace ch11 {

gpgpu::tlm::VariantSpec opencl_variant(OpenClKernels kernels);

}  // namespace ch11
