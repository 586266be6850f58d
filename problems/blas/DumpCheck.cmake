# The --dump round trip of a multiply chapter, as one test: runs the chapter with --dump into a fresh
# folder at m x n x k = 37 x 23 x 41 in float, then checks the folder with NumPy alone
# (problems/blas/check_dump.py). A chapter that exits 77 (every backend missing) makes the test
# report GPGPU_SKIP; any other failure, or a run that writes no dump, fails the test.
#   cmake -DEXE=... -DDIR=... -DPYTHON=... -P DumpCheck.cmake
set(dims --m 37 --n 23 --k 41)
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${EXE}" ${dims} --type float --calls 1 --repeat 1 --warmup 0 --dump "${DIR}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
if(rc STREQUAL "77")
  string(STRIP "${err}" err)
  message("GPGPU_SKIP: backend missing: ${err}")
  return()
endif()
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "the chapter failed (exit '${rc}')\nstdout:\n${out}\nstderr:\n${err}")
endif()
execute_process(COMMAND "${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/check_dump.py" "${DIR}" ${dims} RESULT_VARIABLE rc TIMEOUT 120)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "problems/blas/check_dump.py rejected the dump in ${DIR} (exit '${rc}')")
endif()
