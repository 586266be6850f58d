# Chooses CMAKE_CUDA_ARCHITECTURES before `project()` enables languages.
#
# - If the user set CMAKE_CUDA_ARCHITECTURES (cache or -D), it is kept.
# - If an NVIDIA GPU is visible (nvidia-smi lists one), use `native`: code for exactly that GPU.
# - Otherwise build a portable default: SASS for Turing (75), Ampere (80, 86), Ada (89) and
#   Hopper (90, the H100 the tutorial is measured on), plus compute_90 PTX so newer GPUs can JIT it.
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()
find_program(GPGPU_NVIDIA_SMI nvidia-smi)
set(_gpgpu_gpu_visible OFF)
if(GPGPU_NVIDIA_SMI)
  execute_process(COMMAND "${GPGPU_NVIDIA_SMI}" -L
    OUTPUT_VARIABLE _gpgpu_smi_out ERROR_QUIET RESULT_VARIABLE _gpgpu_smi_rc TIMEOUT 20)
  if(_gpgpu_smi_rc EQUAL 0 AND _gpgpu_smi_out MATCHES "GPU [0-9]+:")
    set(_gpgpu_gpu_visible ON)
  endif()
endif()
if(_gpgpu_gpu_visible)
  set(CMAKE_CUDA_ARCHITECTURES native CACHE STRING "CUDA architectures (native: the visible GPU)")
  set(GPGPU_CUDA_ARCH_REASON "native (a GPU is visible)")
else()
  set(CMAKE_CUDA_ARCHITECTURES "75-real;80-real;86-real;89-real;90"
      CACHE STRING "CUDA architectures (no GPU visible: portable default incl. sm_90)")
  set(GPGPU_CUDA_ARCH_REASON "portable default (no GPU visible)")
endif()
