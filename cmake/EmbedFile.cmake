# Helper script for gpgpu_embed_text(): writes one header that holds the file as a raw string, or
# with EXTERN a source that defines it as an extern const (declared by gpgpu_embed_text_declarations).
file(READ "${IN}" text)
if(text MATCHES "\\)gpgpu_embed\"")
  message(FATAL_ERROR "${IN} contains the raw-string delimiter )gpgpu_embed\"")
endif()
if(EXTERN)
  set(head "#include \"gpgpu/embedded_text.hpp\"\n")
  set(declaration "extern const EmbeddedText ${SYMBOL};\nconst EmbeddedText ${SYMBOL}")
else()
  set(head "#pragma once\n#include \"gpgpu/embedded_text.hpp\"\n")
  set(declaration "inline constexpr EmbeddedText ${SYMBOL}")
endif()
file(WRITE "${OUT}.tmp"
  "// Generated from ${REL} by cmake/EmbedFile.cmake. Do not edit.\n"
  "${head}"
  "namespace gpgpu::embedded {\n"
  "${declaration}{\"${REL}\", R\"gpgpu_embed(${text})gpgpu_embed\"};\n"
  "}  // namespace gpgpu::embedded\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
