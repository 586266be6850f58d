# Helper script for gpgpu_embed_text(): writes one header that holds the file as a raw string.
file(READ "${IN}" text)
if(text MATCHES "\\)gpgpu_embed\"")
  message(FATAL_ERROR "${IN} contains the raw-string delimiter )gpgpu_embed\"")
endif()
file(WRITE "${OUT}.tmp"
  "// Generated from ${REL} by cmake/EmbedFile.cmake. Do not edit.\n"
  "#pragma once\n#include \"gpgpu/embedded_text.hpp\"\n"
  "namespace gpgpu::embedded {\n"
  "inline constexpr EmbeddedText ${SYMBOL}{\"${REL}\", R\"gpgpu_embed(${text})gpgpu_embed\"};\n"
  "}  // namespace gpgpu::embedded\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
