# Runs CMD ('|'-separated) and passes only if it exits with 77 (backend missing) after printing
# exactly one line on stderr. The tests set OCL_ICD_VENDORS to hide OpenCL drivers from the ICD
# loader, so "no platform" and "no GPU" are checked on any machine.
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
string(STRIP "${err}" err_stripped)
if(NOT rc STREQUAL "77")
  message(FATAL_ERROR "expected exit code 77, got '${rc}'\ncommand: ${cmd}\nstdout:\n${out}\nstderr:\n${err}")
endif()
string(REGEX MATCHALL "\n" newlines "${err_stripped}")
list(LENGTH newlines n)
if(err_stripped STREQUAL "" OR n GREATER 0)
  message(FATAL_ERROR "expected a one-line message on stderr, got:\n${err}")
endif()
message("ok (exit 77): ${err_stripped}")
