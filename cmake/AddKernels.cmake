# The device-code libraries of kernels/<problem>/cuda/ and their CPU emulation tests: one function
# each, so that every problem's kernels are built, reported and tested the same way.

# ptxas' registers, spills and shared memory of every kernel in the build log (cmake --build ... -v).
option(GPGPU_CUDA_RESOURCE_REPORT "Print ptxas register/spill reports of every CUDA kernel library" OFF)

# gpgpu_add_cuda_kernels(<problem> <source.cu>...): the static library gpgpu_<problem>_cuda_kernels
# (alias gpgpu::<problem>_cuda_kernels) of one problem's kernels, linked to its problem library
# gpgpu::<problem> and to the CUDA layer; its headers are included as "<problem>/cuda/...".
function(gpgpu_add_cuda_kernels problem)
  set(target gpgpu_${problem}_cuda_kernels)
  add_library(${target} STATIC ${ARGN})
  add_library(gpgpu::${problem}_cuda_kernels ALIAS ${target})
  target_include_directories(${target} PUBLIC "${PROJECT_SOURCE_DIR}/kernels")
  target_link_libraries(${target} PUBLIC gpgpu::${problem} gpgpu::cuda)
  gpgpu_target_defaults(${target})
  if(GPGPU_CUDA_RESOURCE_REPORT)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v>)
  endif()
endfunction()

# gpgpu_add_emulated_kernel_test(NAME <test> SOURCES <file>... LINK <target>...): the kernels,
# unchanged, compiled as C++ on the CPU emulation of the CUDA thread model (label cpu, no GPU).
function(gpgpu_add_emulated_kernel_test)
  cmake_parse_arguments(E "" "NAME" "SOURCES;LINK" ${ARGN})
  gpgpu_add_test(NAME ${E_NAME} BACKEND cpu SOURCES ${E_SOURCES} LINK ${E_LINK})
  if(TARGET ${E_NAME})
    target_include_directories(${E_NAME} PRIVATE "${PROJECT_SOURCE_DIR}/kernels")
    target_compile_options(${E_NAME} PRIVATE -Wno-unknown-pragmas)  # `#pragma unroll` is for nvcc
  endif()
endfunction()
