#include "gpgpu/profile_range.hpp"

// NVTX 3 is header-only (a profiler that attaches injects itself through it); CMake puts the CUDA
// toolkit's headers on this file's include path when the build has CUDA.
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define GPGPU_NVTX 1
#else
#define GPGPU_NVTX 0
#endif

namespace gpgpu {

ProfileRange::ProfileRange([[maybe_unused]] const std::string& name) {
#if GPGPU_NVTX
  nvtxRangePushA(name.c_str());
#endif
}

ProfileRange::~ProfileRange() {
#if GPGPU_NVTX
  nvtxRangePop();
#endif
}

}  // namespace gpgpu
