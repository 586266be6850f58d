# gpgpu_keep_cuda_out_of_unity(<dir>): marks every CUDA source of every target in <dir> and below
# SKIP_UNITY_BUILD_INCLUSION, after the targets exist. The unity build (GPGPU_UNITY_BUILD) is for
# the C++ files; CMake 3.31 and later batch .cu files as well, and the CUDA files of this project
# must stay one translation unit each: one kernel per file, each with its own file-local names
# (kBlock, kStages, an anonymous launch<In>), which two files of one batch would define twice.
# Walking the tree keeps this to one place instead of a property on every target that has .cu files.
function(gpgpu_keep_cuda_out_of_unity dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      continue()
    endif()
    get_target_property(sources ${target} SOURCES)
    get_target_property(source_dir ${target} SOURCE_DIR)
    set(cuda_sources)
    foreach(source IN LISTS sources)
      if(source MATCHES "\\.cu$")
        cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${source_dir}")
        list(APPEND cuda_sources "${source}")
      endif()
    endforeach()
    if(cuda_sources)
      set_source_files_properties(${cuda_sources} DIRECTORY "${dir}" PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
  get_property(children DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(child IN LISTS children)
    gpgpu_keep_cuda_out_of_unity("${child}")
  endforeach()
endfunction()
