# One function registers a chapter with everything that belongs to it (in the spirit of the
# OpenCL-SDK's add_sample): the executable, its backends, its smoke test, the command-line cases of
# the option groups it uses, and its place in the tour. Tests and benchmarks have their own small
# functions below.
#
#   gpgpu_add_chapter(ID 10 TARGET ch10_matrix_multiply
#                     TITLE "Matrix multiply in CUDA and OpenCL"
#                     BACKENDS cpu                        # all required: otherwise the chapter is off
#                     [OPTIONAL_BACKENDS cuda opencl gl]  # used when built, else a gpgpu::NotBuilt note
#                     SOURCES main.cpp LINK ch10_cpu
#                     [CUDA_SOURCES f.cpp] [CUDA_LINK ch10_cuda] [OPENCL_SOURCES ...] [OPENCL_LINK ch10_opencl]
#                     [GL_SOURCES ...] [GL_LINK ...]
#                     OPTION_GROUPS gemm
#                     [QUICK_ARGS --quick ...]
#                     [OUTPUT_FAULTS [PNG] [FULL | FULL=--variant|v]])  # see cmake/OutputFaults.cmake
#
#   gpgpu_add_test(NAME test_ch01_solvers BACKEND cpu SOURCES test_ch01_solvers.cpp LINK gpgpu::jacobi_cpu [LABELS x])
#   gpgpu_add_benchmark(NAME bench_ch01_cpu_jacobi BACKEND cpu SOURCES bench_ch01_cpu_jacobi.cpp
#                       LINK gpgpu::jacobi_cpu [SMOKE_ARGS ...])
#
# Backends are cpu, gl, cuda and opencl. main() adds every backend's list of variants; an optional
# backend's list is compiled only when it is built, and its header declares it instead, when
# GPGPU_BUILT_<BACKEND> is 0, as a gpgpu::NotBuilt note with the reason GPGPU_WHY_<BACKEND>, which
# the run prints.
#
# Option groups: each problem library declares its group's bad-input cases with
# gpgpu_define_option_group(); every chapter gets the core group's cases and those of the groups it
# names, each as a test that expects a one-line error and exit code 2.

set(GPGPU_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(_gpgpu_backend_var backend out)
  string(TOUPPER "${backend}" up)
  if(NOT up MATCHES "^(CPU|GL|CUDA|OPENCL)$")
    message(FATAL_ERROR "unknown backend '${backend}' (expected cpu, gl, cuda or opencl)")
  endif()
  set(${out} ${up} PARENT_SCOPE)
endfunction()

# Compiler flags shared by every target of the project.
function(gpgpu_target_defaults target)
  target_compile_features(${target} PRIVATE cxx_std_20)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>)
    if(GPGPU_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
    endif()
  endif()
endfunction()

# Optimisation for CPU solver code: -march=native when GPGPU_NATIVE_CPU is ON (the CPU baseline
# should be as fast as this machine allows). Applied to C++ sources only, never to CUDA.
function(gpgpu_cpu_optimisation target)
  if(GPGPU_NATIVE_CPU AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
  endif()
endfunction()

# Adds a ctest entry that runs CMD (a '|'-separated argument list) and checks its exit code.
# EXPECT 2 also checks that the error is a single line on stderr (the project's convention).
function(gpgpu_add_exit_test name expect labels cmd)
  # Optional: SKIP_IF <command> <regex>, OUTPUT <regex>, ERROR <regex> (see ExpectExit.cmake).
  cmake_parse_arguments(X "" "OUTPUT;ERROR" "SKIP_IF" ${ARGN})
  set(extra "")
  if(DEFINED X_OUTPUT)
    list(APPEND extra "-DOUTPUT_MATCH=${X_OUTPUT}")
  endif()
  if(DEFINED X_ERROR)
    list(APPEND extra "-DERROR_MATCH=${X_ERROR}")
  endif()
  if(X_SKIP_IF)
    list(GET X_SKIP_IF 0 skip_cmd)
    list(GET X_SKIP_IF 1 skip_regex)
    list(APPEND extra "-DSKIP_IF_CMD=${skip_cmd}" "-DSKIP_IF_MATCH=${skip_regex}")
  endif()
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DEXPECT=${expect} "-DCMD=${cmd}" ${extra} -P "${GPGPU_CMAKE_DIR}/ExpectExit.cmake")
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" SKIP_REGULAR_EXPRESSION "GPGPU_SKIP" TIMEOUT 300)
endfunction()

# Declares an option group's bad-input cases (each "name|arg|arg..."; a first element
# "env:VAR=VALUE" runs the command with that environment variable) and, optionally, a CMake script
# that checks the chapter's --dump output: it is run as
#   cmake -DEXE=<chapter> -DDIR=<folder> -DPYTHON=<python with NumPy> -P <script>
function(gpgpu_define_option_group)
  cmake_parse_arguments(G "" "NAME;DUMP_CHECK" "CASES" ${ARGN})
  set_property(GLOBAL PROPERTY GPGPU_OPTION_GROUP_${G_NAME}_CASES "${G_CASES}")
  set_property(GLOBAL PROPERTY GPGPU_OPTION_GROUP_${G_NAME}_DUMP_CHECK "${G_DUMP_CHECK}")
  set_property(GLOBAL PROPERTY GPGPU_OPTION_GROUP_${G_NAME}_DEFINED TRUE)
endfunction()

# The core group: every chapter has these options.
# OMP_NUM_THREADS is held to the bound of --threads (100000 threads once ended in SIGSEGV, 60000 in
# an abort inside the OpenMP runtime); --repeat and --warmup to a count whose times fit in memory.
gpgpu_define_option_group(NAME core CASES
  "repeat_zero|--repeat|0" "warmup_negative|--warmup|-1" "unknown_option|--no-such-option"
  "unknown_variant|--variant|no_such_variant" "csv_into_missing_dir|--csv|/nonexistent/dir/out.csv"
  "repeat_above_bound|--repeat|100001" "warmup_above_bound|--warmup|100001"
  "omp_threads_100000|env:OMP_NUM_THREADS=100000|--quick" "omp_threads_60000|env:OMP_NUM_THREADS=60000|--quick"
  "omp_threads_list|env:OMP_NUM_THREADS=2,100000|--quick")

# Every C++ source of the project sees which backends were built: GPGPU_BUILT_<BACKEND> is 1 or 0,
# and for one that is off GPGPU_WHY_<BACKEND> is the reason. A chapter's header declares its list of
# a backend's variants, or, without that backend, a gpgpu::NotBuilt note with the reason instead.
function(gpgpu_backend_definitions)
  foreach(b IN ITEMS cpu gl cuda opencl)
    _gpgpu_backend_var(${b} up)
    if(GPGPU_HAVE_${up})
      add_compile_definitions($<$<COMPILE_LANGUAGE:CXX>:GPGPU_BUILT_${up}=1>)
    else()
      string(REPLACE "\"" "'" why "${GPGPU_WHY_${up}}")
      add_compile_definitions($<$<COMPILE_LANGUAGE:CXX>:GPGPU_BUILT_${up}=0>
                              "$<$<COMPILE_LANGUAGE:CXX>:GPGPU_WHY_${up}=\"${why}\">")
    endif()
  endforeach()
endfunction()

function(gpgpu_add_chapter)
  cmake_parse_arguments(CH "" "ID;TARGET;TITLE"
    "BACKENDS;OPTIONAL_BACKENDS;SOURCES;LINK;OPTION_GROUPS;QUICK_ARGS;OUTPUT_FAULTS;CPU_SOURCES;CPU_LINK;CUDA_SOURCES;CUDA_LINK;OPENCL_SOURCES;OPENCL_LINK;GL_SOURCES;GL_LINK"
    ${ARGN})
  if(NOT CH_BACKENDS)
    set(CH_BACKENDS cpu)
  endif()
  foreach(b IN LISTS CH_BACKENDS)
    _gpgpu_backend_var(${b} up)
    if(NOT GPGPU_HAVE_${up})
      set_property(GLOBAL APPEND PROPERTY GPGPU_CHAPTER_SUMMARY
        "off  ${CH_ID} ${CH_TARGET}: ${b} backend off (${GPGPU_WHY_${up}})")
      set_property(GLOBAL APPEND PROPERTY GPGPU_TOUR_OFF "${CH_ID}|${CH_TARGET}|${b}|${GPGPU_WHY_${up}}")
      return()
    endif()
  endforeach()

  add_executable(${CH_TARGET} ${CH_SOURCES})
  target_link_libraries(${CH_TARGET} PRIVATE gpgpu::common ${CH_LINK})
  gpgpu_target_defaults(${CH_TARGET})
  set_target_properties(${CH_TARGET} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bin")
  # Every backend's own sources and libraries (gpgpu_backend_definitions() tells the sources which
  # backends were built).
  set(labels "")
  foreach(b IN LISTS CH_BACKENDS CH_OPTIONAL_BACKENDS)
    _gpgpu_backend_var(${b} up)
    if(GPGPU_HAVE_${up})
      target_sources(${CH_TARGET} PRIVATE ${CH_${up}_SOURCES})
      target_link_libraries(${CH_TARGET} PRIVATE ${CH_${up}_LINK})
      list(APPEND labels ${b})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES labels)
  list(GET CH_BACKENDS 0 main_backend)

  set_property(GLOBAL APPEND PROPERTY GPGPU_CHAPTER_SUMMARY "on   ${CH_ID} ${CH_TARGET}: ${CH_TITLE}")
  set_property(GLOBAL APPEND PROPERTY GPGPU_TOUR_ON "${CH_ID}|${CH_TARGET}|${main_backend}|${CH_TITLE}")

  if(NOT BUILD_TESTING)
    return()
  endif()
  set(exe "$<TARGET_FILE:${CH_TARGET}>")
  list(APPEND labels chapter)
  if(NOT CH_QUICK_ARGS)
    set(CH_QUICK_ARGS --quick)
  endif()
  # The chapter runs end to end at a small size and verifies itself (exit 0), or skips (77).
  add_test(NAME ${CH_TARGET}.quick COMMAND ${CH_TARGET} ${CH_QUICK_ARGS})
  set_tests_properties(${CH_TARGET}.quick PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77 TIMEOUT 600)
  gpgpu_add_exit_test(${CH_TARGET}.help 0 "${labels}" "${exe}|--help")
  # --variant all: every variant that can run here runs and passes; each one that cannot (its backend
  # missing, a device without what it needs, an element type it lacks) is named with the reason.
  string(JOIN "|" quick_args ${CH_QUICK_ARGS})
  gpgpu_add_exit_test(${CH_TARGET}.variant_all 0 "${labels}" "${exe}|${quick_args}|--variant|all" OUTPUT "PASS")
  # Output paths that cannot be written (empty, a folder, a file as a folder, a used --dump folder,
  # a read-only folder) are refused before the run; with FULL, a full disk at the end of a run keeps
  # every earlier file (cmake/OutputFaults.cmake).
  set(fault_flags "")
  foreach(flag IN LISTS CH_OUTPUT_FAULTS)
    if(NOT flag MATCHES "=")
      set(flag "${flag}=ON")
    endif()
    list(APPEND fault_flags "-D${flag}")
  endforeach()
  add_test(NAME ${CH_TARGET}.output_faults
    COMMAND ${CMAKE_COMMAND} "-DEXE=${exe}" "-DDIR=${CMAKE_CURRENT_BINARY_DIR}/${CH_TARGET}.output_faults"
            "-DARGS=${quick_args}" ${fault_flags} -P "${GPGPU_CMAKE_DIR}/OutputFaults.cmake")
  set_tests_properties(${CH_TARGET}.output_faults PROPERTIES LABELS "${labels};cli" TIMEOUT 600)
  # Bad input of every option group the chapter uses: a one-line error and exit code 2.
  foreach(group core ${CH_OPTION_GROUPS})
    get_property(defined GLOBAL PROPERTY GPGPU_OPTION_GROUP_${group}_DEFINED)
    if(NOT defined)
      message(FATAL_ERROR "${CH_TARGET}: option group '${group}' is not defined (gpgpu_define_option_group)")
    endif()
    get_property(cases GLOBAL PROPERTY GPGPU_OPTION_GROUP_${group}_CASES)
    foreach(case IN LISTS cases)
      string(REPLACE "|" ";" parts "${case}")
      list(POP_FRONT parts case_name)
      set(prefix "")
      list(GET parts 0 first)
      if(first MATCHES "^env:(.*)$")
        list(POP_FRONT parts)
        set(prefix "${CMAKE_COMMAND}|-E|env|${CMAKE_MATCH_1}|")
      endif()
      string(JOIN "|" args ${parts})
      gpgpu_add_exit_test(${CH_TARGET}.cli.${case_name} 2 "${labels};cli" "${prefix}${exe}|${args}")
    endforeach()
    # --dump writes NumPy files that an independent NumPy implementation must agree with.
    get_property(dump_check GLOBAL PROPERTY GPGPU_OPTION_GROUP_${group}_DUMP_CHECK)
    if(dump_check AND GPGPU_HAVE_NPY_CHECK)
      add_test(NAME ${CH_TARGET}.dump_check
        COMMAND ${CMAKE_COMMAND} "-DEXE=${exe}" "-DDIR=${CMAKE_CURRENT_BINARY_DIR}/${CH_TARGET}.dump"
                "-DPYTHON=${GPGPU_PYTHON_NUMPY}" -P "${dump_check}")
      set_tests_properties(${CH_TARGET}.dump_check PROPERTIES LABELS "${labels}" SKIP_REGULAR_EXPRESSION "GPGPU_SKIP"
        TIMEOUT 400)
    endif()
  endforeach()
endfunction()

# A GoogleTest executable with the project's test main and the backend's harness, not yet a test:
# gpgpu_add_test registers it, an exercise's grading test runs it expecting a failure.
#   gpgpu_add_test_executable(<name> <backend> <sources...> [LINK <libraries...>])
function(gpgpu_add_test_executable name backend)
  cmake_parse_arguments(E "" "" "LINK" ${ARGN})
  add_executable(${name} ${E_UNPARSED_ARGUMENTS})
  gpgpu_link_test_harness(${name} ${backend} ${E_LINK})
  gpgpu_target_defaults(${name})
endfunction()

# What a test's code is compiled and linked with: the core, `libraries`, the project's test main, the
# backend's harness and GoogleTest (an exercise's check compiled once for several executables too).
function(gpgpu_link_test_harness target backend)
  string(TOLOWER "${backend}" lb)
  target_link_libraries(${target} PRIVATE gpgpu::common ${ARGN} gpgpu_test_main gpgpu_harness_${lb}
    GTest::gtest GTest::gmock)
endfunction()

# A GoogleTest executable. Its main() returns 77 (CTest: skipped) when the backend is missing at
# run time, so CUDA tests skip cleanly on machines without a GPU. With SHARDS n (n > 1) CTest runs it
# as n tests, <NAME>.shard_<i>_of_<n>, each the i-th of GoogleTest's n shards (GTEST_TOTAL_SHARDS,
# GTEST_SHARD_INDEX: every test in exactly one shard), so that `ctest -j` spreads a long binary over
# the cores: on a GPU host a binary of a few minutes otherwise ends the whole suite alone.
#   gpgpu_add_test(NAME <name> BACKEND <cpu|cuda|opencl|gl> SOURCES <...> [LINK <...>] [LABELS <...>] [SHARDS n])
function(gpgpu_add_test)
  cmake_parse_arguments(T "" "NAME;BACKEND;SHARDS" "SOURCES;LINK;LABELS" ${ARGN})
  _gpgpu_backend_var(${T_BACKEND} up)
  if(NOT GPGPU_HAVE_TESTS OR NOT GPGPU_HAVE_${up})
    return()
  endif()
  string(TOLOWER "${T_BACKEND}" lb)
  gpgpu_add_test_executable(${T_NAME} ${T_BACKEND} ${T_SOURCES} LINK ${T_LINK})
  if(NOT T_SHARDS OR T_SHARDS LESS 2)
    set(T_SHARDS 1)
  endif()
  math(EXPR last "${T_SHARDS} - 1")
  foreach(i RANGE ${last})
    set(test ${T_NAME})
    if(T_SHARDS GREATER 1)
      set(test ${T_NAME}.shard_${i}_of_${T_SHARDS})
    endif()
    add_test(NAME ${test} COMMAND ${T_NAME})
    set_tests_properties(${test} PROPERTIES LABELS "${lb};${T_LABELS}" SKIP_RETURN_CODE 77 TIMEOUT 1200)
    if(T_SHARDS GREATER 1)
      set_tests_properties(${test} PROPERTIES ENVIRONMENT "GTEST_TOTAL_SHARDS=${T_SHARDS};GTEST_SHARD_INDEX=${i}")
    endif()
  endforeach()
endfunction()

# A Google Benchmark executable with the project's main (adds the machine to the JSON context).
# Its smoke test runs a tiny filter once to prove it works; it asserts nothing about time.
function(gpgpu_add_benchmark)
  cmake_parse_arguments(B "" "NAME;BACKEND" "SOURCES;LINK;SMOKE_ARGS" ${ARGN})
  _gpgpu_backend_var(${B_BACKEND} up)
  if(NOT GPGPU_HAVE_BENCHMARKS OR NOT GPGPU_HAVE_${up})
    return()
  endif()
  string(TOLOWER "${B_BACKEND}" lb)
  add_executable(${B_NAME} ${B_SOURCES})
  target_link_libraries(${B_NAME} PRIVATE gpgpu::common ${B_LINK} gpgpu_bench_main gpgpu_harness_${lb}
    benchmark::benchmark)
  gpgpu_target_defaults(${B_NAME})
  set_target_properties(${B_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bin")
  if(BUILD_TESTING AND B_SMOKE_ARGS)
    add_test(NAME ${B_NAME}.smoke COMMAND ${B_NAME} ${B_SMOKE_ARGS}
      --benchmark_out=${B_NAME}.smoke.json --benchmark_out_format=json)
    set_tests_properties(${B_NAME}.smoke PROPERTIES LABELS "${lb};benchmark" SKIP_RETURN_CODE 77 TIMEOUT 600)
  endif()
endfunction()

# The tour runs every built chapter in order; chapters whose backend is off are listed as such.
function(gpgpu_generate_tour)
  get_property(on GLOBAL PROPERTY GPGPU_TOUR_ON)
  get_property(off GLOBAL PROPERTY GPGPU_TOUR_OFF)
  # Entries are "id|target|backend|title-or-reason"; built chapters get their executable's path.
  set(entries "")
  # The same list as a table for scripts (scripts/lecture.sh): id, target, backend, executable or
  # "-", and the title or the reason it was not built.
  set(manifest "")
  foreach(kind on off)
    foreach(item IN LISTS ${kind})
      string(REPLACE "|" ";" f "${item}")
      list(GET f 0 id)
      list(GET f 1 tgt)
      list(GET f 2 backend)
      list(GET f 3 text)
      string(REPLACE "\"" "'" text "${text}")
      if(kind STREQUAL "on")
        string(APPEND entries "  {\"${id}\", \"${tgt}\", \"${backend}\", \"${text}\", \"$<TARGET_FILE:${tgt}>\", \"\"},\n")
        string(APPEND manifest "${id}\t${tgt}\t${backend}\t$<TARGET_FILE:${tgt}>\t${text}\n")
      else()
        string(APPEND entries "  {\"${id}\", \"${tgt}\", \"${backend}\", \"\", \"\", \"not built: ${text}\"},\n")
        string(APPEND manifest "${id}\t${tgt}\t${backend}\t-\tnot built: ${text}\n")
      endif()
    endforeach()
  endforeach()
  file(GENERATE OUTPUT "${PROJECT_BINARY_DIR}/chapters.tsv" CONTENT "${manifest}")
  # Results go into the build tree by default, never into the directory the tour is started from.
  _gpgpu_tour_executable(gpgpu_tour "${entries}" "${PROJECT_BINARY_DIR}/tour-results")
  set_target_properties(gpgpu_tour PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bin")
  foreach(item IN LISTS on)
    string(REPLACE "|" ";" f "${item}")
    list(GET f 1 tgt)
    add_dependencies(gpgpu_tour ${tgt})
  endforeach()

  # The tour's own tests: the same driver over two stand-in chapters (scripts/tests/stub_chapter.sh)
  # and one that is not built, so that they run in seconds, with no chapter built.
  if(BUILD_TESTING)
    set(stub "${PROJECT_SOURCE_DIR}/scripts/tests/stub_chapter.sh")
    _gpgpu_tour_executable(gpgpu_tour_stub
      "  {\"01\", \"ch01_stub\", \"cpu\", \"a stand-in chapter\", \"${stub}\", \"\"},
  {\"02\", \"ch02_stub\", \"gl\", \"\", \"\", \"not built: a stand-in for a missing backend\"},
  {\"03\", \"ch03_stub\", \"cpu\", \"another stand-in chapter\", \"${stub}\", \"\"},
" "${PROJECT_BINARY_DIR}/tour-stub-results")
    add_test(NAME tour.faults
             COMMAND bash "${PROJECT_SOURCE_DIR}/common/tour/tests/tour_faults.sh" "$<TARGET_FILE:gpgpu_tour_stub>")
    set_tests_properties(tour.faults PROPERTIES LABELS "cpu;tour" TIMEOUT 300)
  endif()
endfunction()

# A tour executable over the given chapter entries (a gpgpu::tour::Chapter table's lines), its JSON
# by default in JSON_DIR: the tour's main (one object for every tour) and a generated table.
function(_gpgpu_tour_executable name entries json_dir)
  if(NOT TARGET gpgpu_tour_main)
    add_library(gpgpu_tour_main OBJECT "${PROJECT_SOURCE_DIR}/common/tour/tour_main.cpp")
    target_link_libraries(gpgpu_tour_main PRIVATE gpgpu::common)
    gpgpu_target_defaults(gpgpu_tour_main)
  endif()
  set(table "${PROJECT_BINARY_DIR}/generated/${name}/tour_chapters.cpp")
  file(GENERATE OUTPUT "${table}" CONTENT "// Generated by gpgpu_generate_tour (cmake/AddChapter.cmake). Do not edit.
#include \"tour_chapters.hpp\"

namespace gpgpu::tour {
namespace {
const Chapter kChapters[] = {
${entries}};
}  // namespace
const std::span<const Chapter> chapters{kChapters};
const char* const default_json_dir = \"${json_dir}\";
}  // namespace gpgpu::tour
")
  add_executable(${name} "${table}" $<TARGET_OBJECTS:gpgpu_tour_main>)
  target_include_directories(${name} PRIVATE "${PROJECT_SOURCE_DIR}/common/tour")
  target_link_libraries(${name} PRIVATE gpgpu::common)
  gpgpu_target_defaults(${name})
endfunction()

# Adds every numbered folder (01_*, 02_*, ...) of the current directory that has a CMakeLists.txt,
# in numeric order. Used for chapters/ and exercises/.
function(gpgpu_add_numbered_subdirectories)
  file(GLOB dirs LIST_DIRECTORIES true RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}" "[0-9][0-9]*_*")
  list(SORT dirs)
  foreach(dir IN LISTS dirs)
    if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${dir}/CMakeLists.txt")
      add_subdirectory(${dir})
    endif()
  endforeach()
endfunction()
