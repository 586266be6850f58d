# The grading test of an exercise: proves that its check FAILS on the skeleton as shipped (exit 1 and
# GoogleTest's "[  FAILED  ]"; a crash, a hang or a skip does not count), so that a passing check means
# something. It runs only while the skeleton is the one shipped: each student file's SHA-256 must be
# the one recorded in exercises/skeletons.sha256 (sha256sum's format, paths from the repository root).
# Once a student has changed the skeleton (solving it), the test reports itself skipped and says so:
# their work is judged by exercise_<ID>_<NAME>, which they see pass. Under CI (GPGPU_STRICT_SKELETONS
# set, as .ci/run does) a skeleton that differs from its record is an error instead: a skeleton
# changed on purpose is recorded again by `cmake --build build --target record_skeletons`.
#
#   cmake -DROOT=<repo> -DFILES=<a|b> -DCHECK=<exercise executable> -DSTUDENT_TEST=<ctest name> -P GradeSkeleton.cmake
#   cmake -DROOT=<repo> -DFILES=<every exercise's files, a|b|...> -DRECORD=ON -P GradeSkeleton.cmake
# FILES are paths from the repository root, separated by '|'. RECORD writes the record instead.
string(REPLACE "|" ";" FILES "${FILES}")
set(list_file "${ROOT}/exercises/skeletons.sha256")
if(RECORD)
  list(SORT FILES)
  set(text "")
  foreach(f IN LISTS FILES)
    file(SHA256 "${ROOT}/${f}" hash)
    string(APPEND text "${hash}  ${f}\n")
  endforeach()
  file(WRITE "${list_file}" "${text}")
  message("recorded ${list_file}")
  return()
endif()
file(STRINGS "${list_file}" records)
foreach(f IN LISTS FILES)
  file(SHA256 "${ROOT}/${f}" actual)
  set(expected "")
  foreach(line IN LISTS records)
    if(line MATCHES "^([0-9a-f]+)  (.+)$" AND CMAKE_MATCH_2 STREQUAL f)
      set(expected "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(NOT actual STREQUAL expected)
    if(DEFINED ENV{GPGPU_STRICT_SKELETONS})
      message(FATAL_ERROR "${f} is not the skeleton recorded in exercises/skeletons.sha256 "
                          "(recorded '${expected}', now ${actual}): record the new skeleton (target record_skeletons)")
    endif()
    message("GPGPU_SKIP: ${f} is no longer the shipped skeleton (you are solving it): "
            "this test proves the check fails on the shipped one; ${STUDENT_TEST} checks your work")
    return()
  endif()
endforeach()
# The check on the shipped skeleton: exit 1 with a failed assertion (ExpectExit.cmake; exit 77, no
# backend here, is a skip). It stops at its first failed test: one is proof enough, and the rest of a
# check that fails everywhere (chapter 13's runs under mpirun) would only take time.
set(CMD "${CHECK}|--gtest_fail_fast")
set(EXPECT 1)
set(OUTPUT_MATCH "\\[  FAILED  \\]")
include("${CMAKE_CURRENT_LIST_DIR}/ExpectExit.cmake")
