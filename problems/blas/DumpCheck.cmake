# The --dump round trip of a multiply chapter: m x n x k = 37 x 23 x 41 in float, one timed call, then
# problems/blas/check_dump.py checks A·B of every result against NumPy within the error bound
# (cmake/DumpRoundTrip.cmake runs both).
#   cmake -DEXE=... -DDIR=... -DPYTHON=... -P DumpCheck.cmake
set(ARGS --m 37 --n 23 --k 41)
set(RUN_ARGS --type float --calls 1 --repeat 1 --warmup 0)
set(CHECKER "${CMAKE_CURRENT_LIST_DIR}/check_dump.py")
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/DumpRoundTrip.cmake")
