# gpgpu_require_one_line(<stderr> <context>): fails the calling script unless <stderr> is exactly one
# non-empty line, the project's convention for a usage error (exit 2) or a missing backend (77).
function(gpgpu_require_one_line err context)
  string(STRIP "${err}" stripped)
  string(REGEX MATCHALL "\n" newlines "${stripped}")
  list(LENGTH newlines n)
  if(stripped STREQUAL "" OR n GREATER 0)
    message(FATAL_ERROR "${context}: expected a one-line error on stderr, got:\n${err}")
  endif()
endfunction()
