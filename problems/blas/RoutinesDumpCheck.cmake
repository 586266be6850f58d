# The --dump round trip of chapter 12: every routine at the --quick sizes (none a multiple of any
# block, tile or vector width), one timed call, then problems/blas/check_routines_dump.py checks every
# result against NumPy within the routine's bound (cmake/DumpRoundTrip.cmake runs both).
#   cmake -DEXE=... -DDIR=... -DPYTHON=... -P RoutinesDumpCheck.cmake
set(ARGS "")
set(RUN_ARGS --quick --calls 1 --repeat 1 --warmup 0)
set(CHECKER "${CMAKE_CURRENT_LIST_DIR}/check_routines_dump.py")
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/DumpRoundTrip.cmake")
