# Detects every backend and tool the tutorial can use and records, for the configure summary,
# which ones are on and why the others are off. Nothing is downloaded: system packages only.
#
# Results (all cache-free, plain variables visible to every subdirectory):
#   GPGPU_HAVE_<X>      ON/OFF for X in CPU OPENMP CUDA OPENCL GL GLFW TESTS BENCHMARKS DOCS NPY_CHECK
#   GPGPU_WHY_<X>       one-line reason shown in the summary

set(GPGPU_BACKENDS CPU OPENMP CUDA OPENCL GL GLFW TESTS BENCHMARKS DOCS NPY_CHECK)

macro(_gpgpu_backend name on why)
  set(GPGPU_HAVE_${name} ${on})
  set(GPGPU_WHY_${name} "${why}")
endmacro()

# --- Libraries every chapter needs ------------------------------------------------------------
find_package(CLI11 CONFIG REQUIRED)          # command-line options (libcli11-dev)
find_package(nlohmann_json 3 CONFIG REQUIRED) # JSON results (nlohmann-json3-dev)
find_package(Threads REQUIRED)
_gpgpu_backend(CPU ON "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")

find_package(OpenMP COMPONENTS CXX)
if(OpenMP_CXX_FOUND)
  _gpgpu_backend(OPENMP ON "OpenMP ${OpenMP_CXX_VERSION}")
else()
  _gpgpu_backend(OPENMP OFF "no OpenMP for ${CMAKE_CXX_COMPILER_ID}: CPU variants run on one thread")
endif()

# --- CUDA ---------------------------------------------------------------------------------------
option(GPGPU_ENABLE_CUDA "Build the CUDA chapters when a CUDA compiler is found" ON)
if(GPGPU_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    find_package(CUDAToolkit)
  endif()
  if(CMAKE_CUDA_COMPILER AND CUDAToolkit_FOUND)
    if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      # CMake 3.25 (Debian 12) knows no C++20 dialect flag for nvcc, although nvcc 12+ accepts it.
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    _gpgpu_backend(CUDA ON "nvcc ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES} (${GPGPU_CUDA_ARCH_REASON})")
  else()
    _gpgpu_backend(CUDA OFF "no CUDA compiler found (install the CUDA Toolkit or set CUDACXX)")
  endif()
else()
  _gpgpu_backend(CUDA OFF "disabled by GPGPU_ENABLE_CUDA=OFF")
endif()

# --- OpenCL -------------------------------------------------------------------------------------
find_package(OpenCL)
find_path(GPGPU_OPENCL_HPP_DIR CL/opencl.hpp)
if(OpenCL_FOUND AND GPGPU_OPENCL_HPP_DIR)
  _gpgpu_backend(OPENCL ON "ICD loader ${OpenCL_LIBRARY}, headers OpenCL ${OpenCL_VERSION_STRING}")
elseif(OpenCL_FOUND)
  _gpgpu_backend(OPENCL OFF "CL/opencl.hpp not found (install opencl-clhpp-headers)")
else()
  _gpgpu_backend(OPENCL OFF "no OpenCL ICD loader (install ocl-icd-opencl-dev)")
endif()

# --- OpenGL through EGL (headless) with GLEW, optional GLFW window --------------------------------
set(OpenGL_GL_PREFERENCE GLVND)
find_package(OpenGL COMPONENTS OpenGL EGL)
find_package(GLEW)
if(OpenGL_OpenGL_FOUND AND OpenGL_EGL_FOUND AND GLEW_FOUND)
  _gpgpu_backend(GL ON "OpenGL + EGL (${OPENGL_egl_LIBRARY}), GLEW ${GLEW_VERSION}")
elseif(NOT OpenGL_EGL_FOUND)
  _gpgpu_backend(GL OFF "no EGL/OpenGL libraries (install libegl-dev libgl-dev)")
else()
  _gpgpu_backend(GL OFF "GLEW not found (install libglew-dev)")
endif()
find_package(glfw3 3.3 CONFIG QUIET)
if(glfw3_FOUND)
  _gpgpu_backend(GLFW ON "GLFW ${glfw3_VERSION} (--window)")
else()
  _gpgpu_backend(GLFW OFF "GLFW not found (install libglfw3-dev): --window unavailable")
endif()

# --- Tests, benchmarks, docs ---------------------------------------------------------------------
find_package(GTest CONFIG)
if(NOT GTest_FOUND)
  find_package(GTest)
endif()
if(BUILD_TESTING AND TARGET GTest::gtest)
  _gpgpu_backend(TESTS ON "GoogleTest ${GTest_VERSION}")
elseif(NOT BUILD_TESTING)
  _gpgpu_backend(TESTS OFF "BUILD_TESTING=OFF")
else()
  _gpgpu_backend(TESTS OFF "GoogleTest not found (install libgtest-dev libgmock-dev)")
endif()

find_package(benchmark CONFIG)
if(benchmark_FOUND)
  _gpgpu_backend(BENCHMARKS ON "Google Benchmark ${benchmark_VERSION}")
else()
  _gpgpu_backend(BENCHMARKS OFF "Google Benchmark not found (install libbenchmark-dev)")
endif()

find_package(Doxygen)
if(DOXYGEN_FOUND)
  _gpgpu_backend(DOCS ON "Doxygen ${DOXYGEN_VERSION}: cmake --build <dir> --target docs")
else()
  _gpgpu_backend(DOCS OFF "Doxygen not found (install doxygen)")
endif()

# The git revision recorded in every JSON result and benchmark context (-DGPGPU_GIT_REVISION=..., or
# the environment variable of that name, overrides it, e.g. for a copy of the tree whose .git is not
# the tree's own commit).
if(NOT DEFINED GPGPU_GIT_REVISION AND DEFINED ENV{GPGPU_GIT_REVISION})
  set(GPGPU_GIT_REVISION "$ENV{GPGPU_GIT_REVISION}")
endif()
if(NOT DEFINED GPGPU_GIT_REVISION)
  set(GPGPU_GIT_REVISION "unknown")
  find_package(Git QUIET)
  if(GIT_FOUND AND EXISTS "${CMAKE_SOURCE_DIR}/.git")
    execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --abbrev=12
      WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}" OUTPUT_VARIABLE _gpgpu_rev
      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _gpgpu_rev_rc)
    if(_gpgpu_rev_rc EQUAL 0 AND _gpgpu_rev)
      set(GPGPU_GIT_REVISION "${_gpgpu_rev}")
    endif()
  endif()
endif()

# Python with NumPy, for the test that reads a --dump back (scripts/check_dump.py). The distribution's
# python3 is tried when the first one on PATH lacks NumPy.
find_package(Python3 COMPONENTS Interpreter QUIET)
# gpgpu_find_python_with(<module> <var>): the first python3 (the one CMake found, then the
# distribution's) that can import <module>, or "".
function(gpgpu_find_python_with module var)
  set(found "")
  foreach(py IN ITEMS "${Python3_EXECUTABLE}" /usr/bin/python3)
    if(py AND EXISTS "${py}" AND NOT found)
      execute_process(COMMAND "${py}" -c "import ${module}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
      if(rc EQUAL 0)
        set(found "${py}")
      endif()
    endif()
  endforeach()
  set(${var} "${found}" PARENT_SCOPE)
endfunction()
gpgpu_find_python_with(numpy GPGPU_PYTHON_NUMPY)
if(GPGPU_PYTHON_NUMPY)
  _gpgpu_backend(NPY_CHECK ON "${GPGPU_PYTHON_NUMPY} with NumPy: each chapter's --dump is re-checked")
else()
  _gpgpu_backend(NPY_CHECK OFF "no python3 with NumPy (python3-numpy): the --dump checks are off")
endif()

function(gpgpu_print_summary)
  message(STATUS "")
  message(STATUS "==== GPGPU Then and Now: configuration summary ====")
  foreach(b IN LISTS GPGPU_BACKENDS)
    if(GPGPU_HAVE_${b})
      set(state "on ")
    else()
      set(state "off")
    endif()
    string(TOLOWER "${b}" lb)
    message(STATUS "  ${state}  ${lb}: ${GPGPU_WHY_${b}}")
  endforeach()
  if(GPGPU_HAVE_CUDA)
    # For which GPUs code was built: the architectures, and whether chapter 10b's Hopper-only steps
    # (sm_90a: wgmma, TMA, clusters) are among them.
    get_property(hopper GLOBAL PROPERTY GPGPU_CUDA_HOPPER_SUMMARY)
    message(STATUS "  cuda code for: ${CMAKE_CUDA_ARCHITECTURES}; ${hopper}")
  endif()
  get_property(chapters GLOBAL PROPERTY GPGPU_CHAPTER_SUMMARY)
  message(STATUS "  chapters:")
  foreach(line IN LISTS chapters)
    message(STATUS "    ${line}")
  endforeach()
  get_property(exercises GLOBAL PROPERTY GPGPU_EXERCISE_SUMMARY)
  if(exercises)
    message(STATUS "  exercises:")
    foreach(line IN LISTS exercises)
      message(STATUS "    ${line}")
    endforeach()
  endif()
  message(STATUS "===================================================")
endfunction()
