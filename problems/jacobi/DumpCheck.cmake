# The --dump round trip of a Jacobi chapter: the chapter and problems/jacobi/check_dump.py get the
# same grid, iteration count and weight (cmake/DumpRoundTrip.cmake runs both).
#   cmake -DEXE=... -DDIR=... -DPYTHON=... -P DumpCheck.cmake
set(ARGS --nx 37 --ny 23 --iters 31 --omega 0.8)
set(RUN_ARGS)
set(CHECKER "${CMAKE_CURRENT_LIST_DIR}/check_dump.py")
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/DumpRoundTrip.cmake")
