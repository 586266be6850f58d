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

# gpgpu_sm90a_why(<out>): why this build compiles no sm_90a code (Hopper's architecture-specific
# features: wgmma, TMA), or "" when it does: the toolkit predates sm_90a, or the build targets no
# compute capability 9.0 GPU (GPGPU_CUDA_BUILDS_SM90, cmake/CudaArchitectures.cmake).
function(gpgpu_sm90a_why out)
  set(why "")
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 12.0)
    set(why "nvcc ${CMAKE_CUDA_COMPILER_VERSION} predates sm_90a (CUDA 12.0)")
  elseif(NOT GPGPU_CUDA_BUILDS_SM90)
    set(why "the build targets no compute capability 9.0 GPU (CMAKE_CUDA_ARCHITECTURES ${CMAKE_CUDA_ARCHITECTURES}: ${GPGPU_CUDA_GPU_CAPS}), so no sm_90a code is built")
  endif()
  set(${out} "${why}" PARENT_SCOPE)
endfunction()

# gpgpu_sm90a_object_library(<objects> <source.cu>...): the object library <objects> of the sources
# compiled for sm_90a alone (-gencode arch=compute_90a,code=sm_90a), linked to the CUDA layer; the
# caller adds its objects to a library. Call it where gpgpu_sm90a_why gave "".
function(gpgpu_sm90a_object_library objects)
  add_library(${objects} OBJECT ${ARGN})
  set_target_properties(${objects} PROPERTIES CUDA_ARCHITECTURES 90a-real)
  target_link_libraries(${objects} PRIVATE gpgpu::cuda)
  gpgpu_target_defaults(${objects})
  if(GPGPU_CUDA_RESOURCE_REPORT)
    target_compile_options(${objects} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v>)
  endif()
endfunction()

# gpgpu_add_sm90a_objects(<problem> <objects> <define> <source.cu>...): the sources compiled for
# sm_90a alone (-gencode arch=compute_90a,code=sm_90a: the code runs on compute capability 9.0 and on
# nothing else) into the object library <objects>, whose objects join gpgpu_<problem>_cuda_kernels;
# <define>=1 for them and for everything that links the kernels. Call it where gpgpu_sm90a_why gave "".
function(gpgpu_add_sm90a_objects problem objects define)
  gpgpu_sm90a_object_library(${objects} ${ARGN})
  target_include_directories(${objects} PRIVATE "${PROJECT_SOURCE_DIR}/kernels")
  target_link_libraries(${objects} PRIVATE gpgpu::${problem})
  target_compile_definitions(${objects} PRIVATE ${define}=1)
  target_sources(gpgpu_${problem}_cuda_kernels PRIVATE $<TARGET_OBJECTS:${objects}>)
  target_compile_definitions(gpgpu_${problem}_cuda_kernels PUBLIC ${define}=1)
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
