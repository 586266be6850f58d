# The --dump round trip of a matrix chapter: a rectangular size in double, one timed call, then
# problems/matrix/check_dump.py recomputes every result with NumPy alone (cmake/DumpRoundTrip.cmake
# runs both).
#   cmake -DEXE=... -DDIR=... -DPYTHON=... -P DumpCheck.cmake
set(ARGS --rows 37 --cols 23 --type double)
set(RUN_ARGS --calls 1 --repeat 1 --warmup 0)
set(CHECKER "${CMAKE_CURRENT_LIST_DIR}/check_dump.py")
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/DumpRoundTrip.cmake")
