# Chooses CMAKE_CUDA_ARCHITECTURES before `project()` enables languages, and records which GPUs the
# build serves (GPGPU_CUDA_GPU_CAPS, GPGPU_CUDA_ARCH_REASON) for the configure summary and for the
# sm_90a objects of chapter 10b (GPGPU_CUDA_BUILDS_SM90, read by kernels/blas/cuda).
#
# - If the user set CMAKE_CUDA_ARCHITECTURES (cache, -D or CUDAARCHS), it is kept. `native` is
#   resolved here through nvidia-smi, so that a build for an H100/H200 by that name still builds
#   the Hopper-only steps.
# - If an NVIDIA GPU is visible (nvidia-smi lists one), build for exactly the compute capabilities
#   it reports (an H100 or H200: 90, SASS and PTX), so a Hopper GPU gets every lesson it can run.
# - Otherwise no GPU can run the code here: compile it once, for sm_90 (the GPU the tutorial is
#   measured on), so that every CUDA source, the sm_90a ones included, is still compiled and
#   checked, at a fifth of the time five architectures took. Building for another GPU on a machine
#   without one: -DCMAKE_CUDA_ARCHITECTURES=80 (say).

# The compute capabilities nvidia-smi reports, as CMake architecture numbers ("9.0" -> 90), one per
# kind of GPU; empty when it lists none.
function(_gpgpu_visible_gpu_caps out)
  set(caps "")
  find_program(GPGPU_NVIDIA_SMI nvidia-smi)
  if(GPGPU_NVIDIA_SMI)
    execute_process(COMMAND "${GPGPU_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
      OUTPUT_VARIABLE smi_out ERROR_QUIET RESULT_VARIABLE smi_rc TIMEOUT 20)
    if(smi_rc EQUAL 0)
      string(REGEX MATCHALL "[0-9]+\\.[0-9]+" found "${smi_out}")
      foreach(cap IN LISTS found)
        string(REPLACE "." "" cap "${cap}")
        list(APPEND caps "${cap}")
      endforeach()
      list(REMOVE_DUPLICATES caps)
    endif()
  endif()
  set(${out} "${caps}" PARENT_SCOPE)
endfunction()

if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  if(DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(_gpgpu_archs "${CMAKE_CUDA_ARCHITECTURES}")
  else()
    set(_gpgpu_archs "$ENV{CUDAARCHS}")
  endif()
  # A value this file chose on an earlier configure keeps the reason it was chosen for.
  if(DEFINED GPGPU_CUDA_ARCH_CHOSEN AND GPGPU_CUDA_ARCH_CHOSEN STREQUAL _gpgpu_archs)
    set(GPGPU_CUDA_ARCH_REASON "${GPGPU_CUDA_ARCH_CHOSEN_REASON}")
  else()
    set(GPGPU_CUDA_ARCH_REASON "as given")
  endif()
  if(_gpgpu_archs STREQUAL "native")
    _gpgpu_visible_gpu_caps(GPGPU_CUDA_GPU_CAPS)
    set(GPGPU_CUDA_ARCH_REASON "native: the visible GPU, compute capability ${GPGPU_CUDA_GPU_CAPS}")
  else()
    set(GPGPU_CUDA_GPU_CAPS "${_gpgpu_archs}")
  endif()
else()
  _gpgpu_visible_gpu_caps(GPGPU_CUDA_GPU_CAPS)
  if(GPGPU_CUDA_GPU_CAPS)
    set(CMAKE_CUDA_ARCHITECTURES "${GPGPU_CUDA_GPU_CAPS}" CACHE STRING "CUDA architectures (the visible GPUs')")
    set(GPGPU_CUDA_ARCH_REASON "the visible GPU's compute capability")
  else()
    set(CMAKE_CUDA_ARCHITECTURES "90" CACHE STRING "CUDA architectures (no GPU visible: sm_90, compiled to be checked)")
    set(GPGPU_CUDA_GPU_CAPS 90)
    set(GPGPU_CUDA_ARCH_REASON "no GPU visible: compiled once, for sm_90, to check every source")
  endif()
  set(GPGPU_CUDA_ARCH_CHOSEN "${CMAKE_CUDA_ARCHITECTURES}" CACHE INTERNAL "")
  set(GPGPU_CUDA_ARCH_CHOSEN_REASON "${GPGPU_CUDA_ARCH_REASON}" CACHE INTERNAL "")
endif()
# Does the build serve a compute capability 9.0 GPU (H100, H200)? Then chapter 10b's wgmma, TMA and
# cluster steps are built for sm_90a beside the rest. "all" and "all-major" include 90.
set(GPGPU_CUDA_BUILDS_SM90 OFF)
if(GPGPU_CUDA_GPU_CAPS MATCHES "(^|;)(90|all|all-major)([-a-z]*)?(;|$)")
  set(GPGPU_CUDA_BUILDS_SM90 ON)
endif()
unset(_gpgpu_archs)
