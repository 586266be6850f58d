# scripts/device/matrix_tables.py against this build's JSON, so that the script the H100 batch
# ends with cannot drift from the result schema: runs the chapter once and its sweep once (--quick,
# every variant that can run here) into DIR under the batch's file names, then renders the summary
# and the README's block A from them; both must succeed. (scripts/report/readme_tables.py, which
# generates the README's other tables, has tests of its own: report_tests.)
#   cmake -DEXE=... -DDIR=... -DPYTHON=... -DTABLES=.../matrix_tables.py -P TablesCheck.cmake
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
foreach(run "--n|67|--json|${DIR}/ch09_8192_float.json" "--sweep|paper|--quick|--type|int|--json|${DIR}/ch09_sweep_int.json")
  string(REPLACE "|" ";" args "${run}")
  execute_process(COMMAND "${EXE}" ${args} --repeat 1 --warmup 0 RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "the chapter failed (exit '${rc}'): ${args}\n${out}\n${err}")
  endif()
endforeach()
execute_process(COMMAND "${PYTHON}" "${TABLES}" summary "${DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "matrix_tables.py summary failed (exit '${rc}')\n${out}\n${err}")
endif()
execute_process(COMMAND "${PYTHON}" "${TABLES}" readme "${DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE tables ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "matrix_tables.py readme failed (exit '${rc}')\n${tables}\n${err}")
endif()
foreach(block "### A: ")
  string(FIND "${tables}" "${block}" at)
  if(at LESS 0)
    message(FATAL_ERROR "the README tables lack block '${block}':\n${tables}")
  endif()
endforeach()
