# The --dump round trip of one chapter, as one test (cmake -P, included by a problem's
# DumpCheck.cmake, which sets what differs): runs the chapter EXE with ARGS and RUN_ARGS and --dump
# into a fresh folder DIR, then checks that folder with the problem's NumPy-only CHECKER, given the
# same ARGS. A chapter that exits 77 (every backend missing) makes the test report GPGPU_SKIP; any
# other failure, or a dump the checker rejects, fails the test.
#   from the caller: EXE, DIR, PYTHON (cmake -D...); ARGS, RUN_ARGS, CHECKER (set before the include)
#   optional (cmake -D..., '|'-separated): EARLIER, the arguments of a run that dumps into DIR first
#   (an earlier dump, of other sizes and variants, that this run must replace whole); ALSO, more
#   arguments of this run.
file(REMOVE_RECURSE "${DIR}")
macro(dump_into_dir)
  execute_process(COMMAND "${EXE}" ${ARGN} --dump "${DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT 240)
  if(rc STREQUAL "77")
    string(STRIP "${err}" err)
    message("GPGPU_SKIP: backend missing: ${err}")
    return()
  endif()
  if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "the chapter failed (exit '${rc}')\nstdout:\n${out}\nstderr:\n${err}")
  endif()
endmacro()
if(DEFINED EARLIER)
  string(REPLACE "|" ";" earlier "${EARLIER}")
  dump_into_dir(${earlier})
endif()
string(REPLACE "|" ";" also "${ALSO}")
dump_into_dir(${ARGS} ${RUN_ARGS} ${also})
execute_process(COMMAND "${PYTHON}" "${CHECKER}" "${DIR}" ${ARGS} RESULT_VARIABLE rc TIMEOUT 120)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "${CHECKER} rejected the dump in ${DIR} (exit '${rc}')")
endif()
