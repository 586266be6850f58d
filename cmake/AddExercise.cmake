# Graded exercises: one check (a GoogleTest file) is built twice, against the student's skeleton
# in exercises/<ID>_<NAME>/ and against the worked answer in solutions/<ID>_<NAME>/.
#
#   gpgpu_add_exercise(ID 01 NAME symmetric_storage BACKEND cpu
#                      CHECK check_symmetric_storage.cpp
#                      STUDENT_SOURCES symmetric_storage.cpp
#                      [STUDENT_TEXT jacobi_symmetric.frag]
#                      [LINK ch01_solvers]
#                      [STUDENT_LINK gpgpu::jacobi]
#                      [BRIDGE_SOURCES ring_slot_call.cpp]
#                      [TAG emulated]
#                      [TIMEOUT 60]
#                      [LINK_OPTIONS LINKER:--wrap=cudaMallocPitch]
#                      [SHORTCUTS plain_tile padded_tile [SHORTCUT_ARGS --gtest_filter=...]])
#
# STUDENT_SOURCES are compiled into the check; STUDENT_TEXT files (shaders, OpenCL C kernels) are
# embedded into it as strings (gpgpu_embed_text: #include "embedded/<file_name>.hpp"). The student's
# folder (exercises/ or solutions/) comes first on the include path, so a check can also compile a
# student's file as part of itself with #include <file> (a CUDA kernel on the CPU emulation, say).
# STUDENT_LINK compiles the STUDENT_SOURCES on their own (an object library linked into the check),
# against their own folder, the exercise's interface and these targets alone: the check's include
# path and libraries (the chapter's kernels, the CUDA layer's wrappers) do not reach the student's
# file, so it cannot call the chapter's answer instead of writing one. Headers a student file needs
# from the project (gpgpu/cuda/check.hpp, say) come as copies alone: gpgpu_add_exercise_headers.
# TIMEOUT (seconds) limits the exercise and solution tests (CTest's own default is far longer): a check
# whose watchdog fails a hang after 40 s gets 60, so a hang always ends in a failure that says why.
# LINK_OPTIONS go to the link of every build (exercise, solution, shortcuts): a check that wraps a
# runtime call (GNU ld's and lld's --wrap) sees the student's calls of it too.
# TAG adds a second check to the same exercise (another backend: a CPU check of a CUDA exercise that
# runs without a GPU); its targets and tests carry the tag.
# The check is compiled once for all the builds when it cannot differ between them: no TAG, no
# STUDENT_SOURCES that the check #includes, headers among them only with BRIDGE_SOURCES, no other
# header in the solution's folder. STUDENT_TEXT is then embedded as a source of each build that
# defines the text the check's header declares (gpgpu_embed_text EXTERN). BRIDGE_SOURCES, files of
# the exercise's folder, are compiled anew for each build with the student's folder first on their
# include path: the small part of a check that #includes the student's file (exercise 10b's
# ring_slot_call.cpp) or gets definitions of its own for each build (exercise 13's
# chapter_under_check.cpp), so that the rest is compiled once.
# SHORTCUTS names wrong answers the check must reject: each a folder solutions/<ID>_<NAME>/shortcuts/<s>/
# holding the student files of a solution that gets the result some way other than the technique the
# exercise teaches (a tile without the swizzle, a product without register blocking). The check is
# built against each (target shortcut_<ID>_<NAME>[_<TAG>]_<s>, run with SHORTCUT_ARGS, e.g. a filter
# that picks the tests of the technique) and must fail it. A grading run stops at the check's first
# failed test (--gtest_fail_fast).
#
# CTest entries and labels:
#   exercise_<ID>_<NAME>[_<TAG>]            label `exercise`: the student's check, fails until solved;
#                                           run it alone with ctest -L '^exercise$' -R '^exercise_<ID>_<NAME>$'
#                                           (-R alone also selects the two entries below)
#   solution_<ID>_<NAME>[_<TAG>]            label `solution`: the same check on the worked answer
#   grading.<ID>_<NAME>[.<TAG>].skeleton_fails  label `grading`: the check FAILS on the shipped skeleton
#                                           (GradeSkeleton.cmake), which proves it can fail; skipped,
#                                           with a line saying why, once the student has changed the
#                                           skeleton (its SHA-256 in exercises/skeletons.sha256 no
#                                           longer matches), so a solver sees only green.
#   grading.<ID>_<NAME>[.<TAG>].shortcut_<s>_fails  label `grading`: the check FAILS on shortcut <s>.
option(GPGPU_GRADE_SKELETONS "Add tests proving that the shipped exercise skeletons fail their checks" ON)

function(gpgpu_add_exercise)
  cmake_parse_arguments(X "" "ID;NAME;BACKEND;CHECK;TAG;TIMEOUT"
                        "STUDENT_SOURCES;STUDENT_TEXT;STUDENT_LINK;BRIDGE_SOURCES;LINK;LINK_OPTIONS;SHORTCUTS;SHORTCUT_ARGS" ${ARGN})
  _gpgpu_backend_var(${X_BACKEND} up)
  set(dir "${X_ID}_${X_NAME}")
  set(suffix "")
  set(grading "grading.${dir}.skeleton_fails")
  if(X_TAG)
    set(suffix "_${X_TAG}")
    set(grading "grading.${dir}.${X_TAG}.skeleton_fails")
  endif()
  if(NOT GPGPU_HAVE_TESTS OR NOT GPGPU_HAVE_${up})
    if(NOT X_TAG)
      set_property(GLOBAL APPEND PROPERTY GPGPU_EXERCISE_SUMMARY "off  ${dir}: needs ${X_BACKEND} and GoogleTest")
    endif()
    return()
  endif()
  set(exercise_dir "${PROJECT_SOURCE_DIR}/exercises/${dir}")
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${dir}")
  set(check "${exercise_dir}/${X_CHECK}")
  set(kinds exercise solution)
  if(GPGPU_GRADE_SKELETONS)
    foreach(shortcut IN LISTS X_SHORTCUTS)
      list(APPEND kinds "shortcut_${shortcut}")
      set(shortcut_${shortcut}_dir "${solution_dir}/shortcuts/${shortcut}")
    endforeach()
  endif()
  # One object of the check for every build, where the builds cannot see it differently.
  set(check_sources "${check}")
  set(shared_check TRUE)
  if(X_TAG OR NOT (X_STUDENT_SOURCES OR X_STUDENT_TEXT))
    set(shared_check FALSE)
  endif()
  file(READ "${check}" check_text)
  foreach(src IN LISTS X_STUDENT_SOURCES)
    if(check_text MATCHES "#include[ \t]*[<\"]${src}[>\"]" OR NOT (src MATCHES "\\.(cpp|cu)$" OR X_BRIDGE_SOURCES))
      set(shared_check FALSE)
    endif()
  endforeach()
  file(GLOB_RECURSE solution_headers "${solution_dir}/*.hpp" "${solution_dir}/*.h" "${solution_dir}/*.cuh")
  foreach(header IN LISTS solution_headers)
    get_filename_component(header "${header}" NAME)
    if(NOT header IN_LIST X_STUDENT_SOURCES)
      set(shared_check FALSE)
    endif()
  endforeach()
  if(shared_check)
    set(check_objects check_${X_ID}_${X_NAME})
    add_library(${check_objects} OBJECT "${check}")
    gpgpu_link_test_harness(${check_objects} ${X_BACKEND} ${X_LINK})
    target_include_directories(${check_objects} PRIVATE "${exercise_dir}")
    gpgpu_target_defaults(${check_objects})
    if(X_STUDENT_TEXT)
      list(TRANSFORM X_STUDENT_TEXT PREPEND "${exercise_dir}/" OUTPUT_VARIABLE texts)
      gpgpu_embed_text_declarations(TARGET ${check_objects} FILES ${texts})
    endif()
    set(check_sources "$<TARGET_OBJECTS:${check_objects}>")
  endif()
  list(TRANSFORM X_BRIDGE_SOURCES PREPEND "${exercise_dir}/" OUTPUT_VARIABLE bridge_sources)
  foreach(kind IN LISTS kinds)
    set(sources "${check_sources}" ${bridge_sources})
    set(student_sources "")
    foreach(src IN LISTS X_STUDENT_SOURCES)
      list(APPEND student_sources "${${kind}_dir}/${src}")
    endforeach()
    if(NOT X_STUDENT_LINK)
      list(APPEND sources ${student_sources})
    endif()
    if(kind MATCHES "^shortcut_(.*)$")
      # A shortcut's check is an executable only: its one test is the grading test below.
      set(target shortcut_${X_ID}_${X_NAME}${suffix}_${CMAKE_MATCH_1})
      gpgpu_add_test_executable(${target} ${X_BACKEND} ${sources} LINK ${X_LINK})
      string(REPLACE ";" "|" shortcut_args "${X_SHORTCUT_ARGS}")
      set(run "$<TARGET_FILE:${target}>|--gtest_fail_fast")  # one failed test is proof enough
      if(shortcut_args)
        set(run "${run}|${shortcut_args}")
      endif()
      string(REPLACE "skeleton_fails" "${kind}_fails" shortcut_test "${grading}")
      gpgpu_add_exit_test(${shortcut_test} 1 "grading;${X_BACKEND}" "${run}" OUTPUT "\\[  FAILED  \\]")
    else()
      set(target ${kind}_${X_ID}_${X_NAME}${suffix})
      gpgpu_add_test(NAME ${target} BACKEND ${X_BACKEND} SOURCES ${sources} LINK ${X_LINK} LABELS ${kind})
      if(X_TIMEOUT)
        set_tests_properties(${target} PROPERTIES TIMEOUT ${X_TIMEOUT})
      endif()
    endif()
    # The exercise folder holds the interface header both versions implement; the student's folder
    # comes first, for checks that #include <a student file>.
    # Each source on its own (no unity batch): the student's file must not see the check's includes.
    set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
    if(X_LINK_OPTIONS)
      target_link_options(${target} PRIVATE ${X_LINK_OPTIONS})
    endif()
    target_include_directories(${target} BEFORE PRIVATE "${${kind}_dir}")
    target_include_directories(${target} PRIVATE "${exercise_dir}")
    if(X_STUDENT_LINK AND student_sources)
      add_library(${target}_student OBJECT ${student_sources})
      set_target_properties(${target}_student PROPERTIES UNITY_BUILD OFF)
      target_include_directories(${target}_student PRIVATE "${${kind}_dir}" "${exercise_dir}")
      target_link_libraries(${target}_student PRIVATE ${X_STUDENT_LINK})
      gpgpu_target_defaults(${target}_student)
      target_link_libraries(${target} PRIVATE ${target}_student)
    endif()
    set(texts "")
    foreach(f IN LISTS X_STUDENT_TEXT)
      list(APPEND texts "${${kind}_dir}/${f}")
    endforeach()
    if(texts AND shared_check)
      gpgpu_embed_text(TARGET ${target} FILES ${texts} EXTERN)
    elseif(texts)
      gpgpu_embed_text(TARGET ${target} FILES ${texts})
    endif()
  endforeach()
  if(GPGPU_GRADE_SKELETONS)
    set(student_files "")
    foreach(f IN LISTS X_STUDENT_SOURCES X_STUDENT_TEXT)
      list(APPEND student_files "exercises/${dir}/${f}")
    endforeach()
    if(NOT student_files)  # a tagged check that #includes the student's file: the untagged call's files
      get_property(student_files GLOBAL PROPERTY GPGPU_EXERCISE_FILES_${dir})
    elseif(NOT X_TAG)
      set_property(GLOBAL PROPERTY GPGPU_EXERCISE_FILES_${dir} "${student_files}")
      set_property(GLOBAL APPEND PROPERTY GPGPU_SKELETON_FILES ${student_files})  # target record_skeletons
    endif()
    string(REPLACE ";" "|" files_arg "${student_files}")
    add_test(NAME ${grading}
      COMMAND ${CMAKE_COMMAND} "-DROOT=${PROJECT_SOURCE_DIR}" "-DFILES=${files_arg}"
              "-DCHECK=$<TARGET_FILE:exercise_${X_ID}_${X_NAME}${suffix}>"
              "-DSTUDENT_TEST=exercise_${X_ID}_${X_NAME}${suffix}" -P "${GPGPU_CMAKE_DIR}/GradeSkeleton.cmake")
    set_tests_properties(${grading} PROPERTIES LABELS "grading;${X_BACKEND}" SKIP_REGULAR_EXPRESSION "GPGPU_SKIP"
                         TIMEOUT 300)
  endif()
  if(NOT X_TAG)
    set_property(GLOBAL APPEND PROPERTY GPGPU_EXERCISE_SUMMARY
      "on   ${dir}: ctest -L '^exercise$' -R '^exercise_${dir}$' (worked answer: solutions/${dir})")
  endif()
endfunction()

# gpgpu_add_exercise_headers(<name> FROM <folder> <header>... [FROM <folder> <header>...]): an interface
# library <name> whose include path holds copies of the named headers alone (paths relative to
# <folder>, itself relative to the project root, kept below the copy's folder), for an exercise's
# student file (STUDENT_LINK) or a check that #includes it: the headers they need, without the rest
# of the folder the project's own code gets them from (a chapter's kernels beside the emulation, the
# CUDA layer's wrappers beside check.hpp).
function(gpgpu_add_exercise_headers name)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  set(from "")
  set(next_is_folder FALSE)
  foreach(arg IN LISTS ARGN)
    if(arg STREQUAL "FROM")
      set(next_is_folder TRUE)
    elseif(next_is_folder)
      set(from "${arg}")
      set(next_is_folder FALSE)
    elseif(from STREQUAL "")
      message(FATAL_ERROR "gpgpu_add_exercise_headers(${name}): FROM <folder> before ${arg}")
    else()
      configure_file("${PROJECT_SOURCE_DIR}/${from}/${arg}" "${out}/${arg}" COPYONLY)
    endif()
  endforeach()
  add_library(${name} INTERFACE)
  target_include_directories(${name} INTERFACE "${out}")
endfunction()
