# Runs CMD ('|'-separated) and fails unless its exit code is EXPECT (a number, or `nonzero`).
# With EXPECT=2 (usage error) or 77 (backend missing) the program must print exactly one line on stderr.
# Exit code 77 (backend missing) prints GPGPU_SKIP so CTest reports the test as skipped, unless
# EXPECT is 77 (a test that makes the backend unavailable on purpose).
# OUTPUT_MATCH: a regex the command's stdout must also match (e.g. the run's PASS line).
# ERROR_MATCH: a regex that exactly one line of stderr must match, the program's own; other lines are
# not checked (mpirun adds its own around an aborted job), so this replaces the one-line check.
# SKIP_IF_CMD / SKIP_IF_MATCH: a precondition. When the first command's output matches the regex, the
# test cannot show what it means to (e.g. the OpenCL ICD loader ignored OCL_ICD_VENDORS and still
# lists platforms) and reports GPGPU_SKIP instead of a false failure.
if(DEFINED SKIP_IF_CMD)
  string(REPLACE "|" ";" precheck "${SKIP_IF_CMD}")
  execute_process(COMMAND ${precheck} OUTPUT_VARIABLE pre_out ERROR_QUIET TIMEOUT 50)
  if(pre_out MATCHES "${SKIP_IF_MATCH}")
    message("GPGPU_SKIP: precondition not met: the output of '${SKIP_IF_CMD}' matches '${SKIP_IF_MATCH}'")
    return()
  endif()
endif()
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
string(STRIP "${err}" err_stripped)
if(rc STREQUAL "77" AND NOT EXPECT STREQUAL "77")
  string(STRIP "${out}" out_stripped)  # a GoogleTest check says why on stdout
  message("GPGPU_SKIP: backend missing: ${err_stripped}${out_stripped}")
  return()
endif()
if(EXPECT STREQUAL "nonzero")
  if(rc STREQUAL "0")
    message(FATAL_ERROR "expected a failure, but the command passed\ncommand: ${cmd}\nstdout:\n${out}")
  endif()
  message("ok: failed as expected (exit ${rc})")
  return()
endif()
if(NOT rc STREQUAL "${EXPECT}")
  message(FATAL_ERROR "expected exit code ${EXPECT}, got '${rc}'\ncommand: ${cmd}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED OUTPUT_MATCH AND NOT out MATCHES "${OUTPUT_MATCH}")
  message(FATAL_ERROR "exit code ${rc} as expected, but stdout does not match '${OUTPUT_MATCH}'\nstdout:\n${out}")
endif()
if(DEFINED ERROR_MATCH)
  string(REPLACE "\n" ";" err_lines "${err}")
  list(FILTER err_lines INCLUDE REGEX "${ERROR_MATCH}")
  list(LENGTH err_lines matching)
  if(NOT matching EQUAL 1)
    message(FATAL_ERROR "exit code ${rc} as expected, but ${matching} lines of stderr match '${ERROR_MATCH}':\n${err}")
  endif()
  message("ok (exit ${rc}): ${err_lines}")
elseif(EXPECT STREQUAL "2" OR EXPECT STREQUAL "77")
  include("${CMAKE_CURRENT_LIST_DIR}/OneLineError.cmake")
  gpgpu_require_one_line("${err}" "exit code ${rc} as expected")
  message("ok (exit ${EXPECT}): ${err_stripped}")
endif()
