# Embeds text files (GLSL shaders, OpenCL C kernels) into a target at build time, so executables
# run from any directory and a compile error can still name the file it came from.
#
#   gpgpu_embed_text(TARGET ch02_glsl_pingpong FILES ${PROJECT_SOURCE_DIR}/kernels/jacobi/gl/02_01_luminance.frag)
#
# For each file a header `embedded/<stem>_<ext>.hpp` is generated; it defines
#   inline constexpr gpgpu::EmbeddedText gpgpu::embedded::<stem>_<ext>{"<path>", R"(...)"};
# where <path> is relative to the project root (see common/include/gpgpu/embedded_text.hpp).
set(GPGPU_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/EmbedFile.cmake")

function(gpgpu_embed_text)
  cmake_parse_arguments(E "" "TARGET" "FILES" ${ARGN})
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/embedded_${E_TARGET}")
  set(headers "")
  foreach(file IN LISTS E_FILES)
    get_filename_component(abs "${file}" ABSOLUTE)
    get_filename_component(name "${abs}" NAME)
    string(MAKE_C_IDENTIFIER "${name}" symbol)
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${abs}")
    set(header "${out_dir}/embedded/${symbol}.hpp")
    add_custom_command(OUTPUT "${header}"
      COMMAND ${CMAKE_COMMAND} -DIN=${abs} -DOUT=${header} -DSYMBOL=${symbol} -DREL=${rel}
              -P "${GPGPU_EMBED_SCRIPT}"
      DEPENDS "${abs}" "${GPGPU_EMBED_SCRIPT}"
      COMMENT "Embedding ${rel}" VERBATIM)
    list(APPEND headers "${header}")
  endforeach()
  target_sources(${E_TARGET} PRIVATE ${headers})
  target_include_directories(${E_TARGET} PRIVATE "${out_dir}")
endfunction()
