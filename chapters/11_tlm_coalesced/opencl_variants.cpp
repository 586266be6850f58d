// The OpenCL variants of chapter 11, registered as the program starts. CMake compiles this file
// only in a build with OpenCL (OPENCL_SOURCES in CMakeLists.txt); without it the run says that
// the opencl backend was not built, and on a machine without a platform that it is missing.
#include "opencl_specs.hpp"

namespace {

const gpgpu::tlm::Registration kCoalesced{ch11::opencl_variant(ch11::OpenClKernels::coalesced)};
const gpgpu::tlm::Registration kFused{ch11::opencl_variant(ch11::OpenClKernels::fused)};

}  // namespace
