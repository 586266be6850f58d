# Output faults of one chapter, as one test (cmake -P): every fault ends in one line on stderr and
# exit code 2, and no file that was there before is changed or removed. Everything happens inside
# the test's own folder DIR; nothing outside it is touched (no /dev/full: a full disk is made with a
# file-size limit, SIGXFSZ ignored, so that a write fails with EFBIG as it would with ENOSPC).
#   cmake -DEXE=<chapter> -DDIR=<folder> [-DARGS=a|b] [-DPNG=ON] [-DFULL=ON|c|d] -P OutputFaults.cmake
# ARGS: the chapter's quick run ('|'-separated). PNG: the chapter has --png. FULL: also run the
# chapter to its end with each output past the file-size limit, adding the arguments FULL gives
# (unless ON): variants that write no other file (a GPU driver's cache would meet the limit too).
include("${CMAKE_CURRENT_LIST_DIR}/OneLineError.cmake")
string(REPLACE "|" ";" args "${ARGS}")
set(full_args "")
if(FULL AND NOT FULL STREQUAL "ON")
  string(REPLACE "|" ";" full_args "${FULL}")
endif()

file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}/folder" "${DIR}/used" "${DIR}/ro")
file(WRITE "${DIR}/file" "a file\n")
file(WRITE "${DIR}/used/notes.txt" "the user's\n")

# Runs the chapter with the quick arguments, `extra` (set by the caller) and `option value` (quoted,
# so that an empty value stays an argument), and expects exit code 2 with one line on stderr that
# matches `match`.
function(expect_refused label match option value)
  execute_process(COMMAND ${PREFIX} "${EXE}" ${args} ${extra} "${option}" "${value}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
  if(NOT rc STREQUAL "2")
    message(FATAL_ERROR "${label}: expected exit code 2, got '${rc}'\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  gpgpu_require_one_line("${err}" "${label}")
  if(NOT err MATCHES "${match}")
    message(FATAL_ERROR "${label}: the message does not match '${match}':\n${err}")
  endif()
  string(STRIP "${err}" err)
  message("ok: ${label}: ${err}")
endfunction()

# Before the run: an empty path, a folder, a file where a folder should be, a folder that holds
# files no dump wrote. (`--dump ''` was once ignored without a word.)
set(outputs --json --csv)
if(PNG)
  list(APPEND outputs --png)
endif()
foreach(option IN LISTS outputs)
  expect_refused("${option} ''" "empty" ${option} "")
  expect_refused("${option} <a folder>" "folder" ${option} "${DIR}/folder")
  expect_refused("${option} <a file>/out" "Not a directory" ${option} "${DIR}/file/out")
endforeach()
expect_refused("--dump ''" "empty" --dump "")
expect_refused("--dump <a file>" "not a folder" --dump "${DIR}/file")
expect_refused("--dump <a file>/sub" "Not a directory" --dump "${DIR}/file/sub")
expect_refused("--dump <a folder with the user's files>" "notes.txt" --dump "${DIR}/used")

# A read-only folder: root may write into it, and the CI runs as root. Then the case cannot be made
# (the chapter would rightly write there) and is reported as not made.
file(CHMOD "${DIR}/ro" DIRECTORY_PERMISSIONS OWNER_READ OWNER_EXECUTE)
execute_process(COMMAND "${CMAKE_COMMAND}" -E touch "${DIR}/ro/probe" RESULT_VARIABLE writable ERROR_QUIET)
if(writable STREQUAL "0")
  message("not made: a read-only folder (this user, root, may write into one)")
else()
  expect_refused("--json <a read-only folder>/out.json" "Permission denied" --json "${DIR}/ro/out.json")
  expect_refused("--dump <a read-only folder>/dump" "Permission denied" --dump "${DIR}/ro/dump")
endif()
file(CHMOD "${DIR}/ro" DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)

file(READ "${DIR}/file" file_now)
file(READ "${DIR}/used/notes.txt" notes_now)
if(NOT file_now STREQUAL "a file\n" OR NOT notes_now STREQUAL "the user's\n")
  message(FATAL_ERROR "a refused run changed a file that was there before")
endif()

if(NOT FULL)
  return()
endif()

# A full disk at the end of a whole run: each output fails with the system's reason, the earlier
# file of that name keeps its contents, and no temporary file is left beside it.
execute_process(COMMAND "${EXE}" ${args} ${full_args} --dump "${DIR}/earlier" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 240)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "the run that makes the earlier dump failed (exit '${rc}'):\n${err}")
endif()
file(GLOB earlier_files RELATIVE "${DIR}/earlier" "${DIR}/earlier/*")
file(READ "${DIR}/earlier/dump_manifest.json" earlier_manifest)
set(PREFIX sh -c "trap '' XFSZ && ulimit -f 0 && exec \"$@\"" sh)  # no ';': it would split the list
set(extra ${full_args})
set(full --json keep.json --csv keep.csv)
if(PNG)
  list(APPEND full --png keep.png)
endif()
while(full)
  list(POP_FRONT full option name)
  file(WRITE "${DIR}/${name}" "the earlier ${name}\n")
  expect_refused("${option} past the file-size limit" "keep\\.[a-z]+': File too large" ${option} "${DIR}/${name}")
  file(READ "${DIR}/${name}" now)
  if(NOT now STREQUAL "the earlier ${name}\n")
    message(FATAL_ERROR "${DIR}/${name} lost its contents: '${now}'")
  endif()
endwhile()
expect_refused("--dump past the file-size limit" "File too large" --dump "${DIR}/earlier")
file(GLOB now_files RELATIVE "${DIR}/earlier" "${DIR}/earlier/*")
file(READ "${DIR}/earlier/dump_manifest.json" now_manifest)
if(NOT now_files STREQUAL earlier_files OR NOT now_manifest STREQUAL earlier_manifest)
  message(FATAL_ERROR "the earlier dump changed: ${earlier_files} -> ${now_files}")
endif()
file(GLOB left LIST_DIRECTORIES true "${DIR}/.*partial*" "${DIR}/earlier/.*partial*")
if(left)
  message(FATAL_ERROR "temporary files left behind: ${left}")
endif()
file(REMOVE_RECURSE "${DIR}")
