// The CUDA variants of chapter 11, registered as the program starts. CMake compiles this file only
// in a build with CUDA (CUDA_SOURCES in CMakeLists.txt); without it the run says that the cuda
// backend was not built, and on a machine without a GPU that it is missing.
#include "cuda_specs.hpp"

namespace {

const gpgpu::tlm::Registration kAos{ch11::cuda_variant(ch11::CudaKernels::aos)};
const gpgpu::tlm::Registration kCoalesced{ch11::cuda_variant(ch11::CudaKernels::coalesced)};
const gpgpu::tlm::Registration kFused{ch11::cuda_variant(ch11::CudaKernels::fused)};
const gpgpu::tlm::Registration kFusedHalf{ch11::cuda_variant(ch11::CudaKernels::fused_half)};

}  // namespace
