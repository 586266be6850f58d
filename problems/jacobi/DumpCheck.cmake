# The --dump round trip of one chapter, as one test: runs the chapter with --dump into a fresh
# folder, then checks that folder with NumPy alone (problems/jacobi/check_dump.py). Both get the same
# iteration count and weight from here. A chapter that exits 77 (backend missing) makes the test
# report GPGPU_SKIP; any other failure, or a run that writes no dump, fails the test.
#   cmake -DEXE=... -DDIR=... -DPYTHON=... -P DumpCheck.cmake
set(args --nx 37 --ny 23 --iters 31 --omega 0.8)
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${EXE}" ${args} --dump "${DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  TIMEOUT 240)
if(rc STREQUAL "77")
  string(STRIP "${err}" err)
  message("GPGPU_SKIP: backend missing: ${err}")
  return()
endif()
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "the chapter failed (exit '${rc}')\nstdout:\n${out}\nstderr:\n${err}")
endif()
execute_process(COMMAND "${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/check_dump.py" "${DIR}" ${args} RESULT_VARIABLE rc TIMEOUT 120)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "problems/jacobi/check_dump.py rejected the dump in ${DIR} (exit '${rc}')")
endif()
