#!/usr/bin/env bash
# Chapter 09 (matrix add and transpose, CUDA and OpenCL) on the GPU machine, in two phases:
#  1. measurements, each alone on the GPU: the chapter at 8192² float (beyond the 50 MB L2: the
#     chapter's goals), the paper's sweep in its add type (int, n = 16 ... 4096), the wide sweep in
#     float (up to 16384²), Nsight Compute's sectors per request and shared-memory bank conflicts of
#     every CUDA kernel at 4096²;
#  2. correctness, side by side (nothing is timed): the chapter's tests (OpenCL on the GPU), and the
#     four compute-sanitizer tools on its CUDA test and the exercise's worked answer at small awkward
#     sizes.
# Then a summary, and what the README takes by hand from this run (ch09_readme_tables.md: the limits
# and goals, Nsight Compute's counters); its other tables come from the JSON once it is committed:
#   cp $OUT/ch09_*.json $OUT/ch09_ncu.csv results/<machine>/ && python3 scripts/report/readme_tables.py
#
# Usage: bash scripts/device/matrix.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build).
# Files written to $OUT, to be kept under results/<machine>/: ch09_8192_float.json, ch09_sweep_int.json,
# ch09_sweep_wide.json, ch09_ncu.csv; ch09_readme_tables.md; and matrix_log.txt (every step's output)
# with logs/ (the side-by-side steps' own logs). A sweep writes its JSON after every n, so a step
# stopped by its time limit still leaves what it measured ("complete": false).
#
# Time: every step has a limit (a hang does not stop the batch): the measurements at most 355 s, the
# tests at most 150 s, the sanitizers step.sh's hang limit (SANITIZER_LIMIT_S). With --budget no step starts past it, and
# the measurements leave the correctness phase at least MATRIX_RESERVE_S (default 90 s) of it.
# Keeps going after a failure and lists every failed or stopped step at the end (exit 1 then).
# STEPS picks parts (default: all).
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
BIN="$BUILD/bin"
CH09="$BIN/ch09_matrix_add_transpose"
TEST="$BUILD/chapters/09_matrix_add_transpose/test_ch09_cuda"
SOLUTION="$BUILD/exercises/09_cuda_swizzled_tile/solution_09_cuda_swizzled_tile"
mkdir -p "$OUT/logs"
STEPS=${STEPS:-"chapter sweeps ncu tests sanitizers"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
LOG="$OUT/matrix_log.txt"
: > "$LOG"
# step.sh's sanitizer_start and sanitizers_wait (each tool's hang limit, SANITIZER_LIMIT_S, its
# log under logs/, its time and verdict); this script's own `step` and `start` below, with their
# per-step limits and the measurements' reserve, take the place of step.sh's `step`.
TMP="$OUT/logs"
source scripts/device/step.sh
failed=()
t0=$(date +%s)
# No budget: no deadline. With one, the measurements leave the correctness phase MATRIX_RESERVE_S.
deadline=${DEVICE_DEADLINE:-$((t0 + 1000000000))}
phase_end=$deadline
[ -n "$DEVICE_DEADLINE" ] && phase_end=$((deadline - ${MATRIX_RESERVE_S:-90}))

# The seconds a step may take: its own limit, or what is left of its phase if that is less.
limit_for() {
  local left=$((phase_end - $(date +%s)))
  echo $(($1 < left ? $1 : left))
}
# Records how a step ended (timeout's 124/137: stopped at its limit; 999: never started).
verdict() {
  local name=$1 rc=$2 seconds=$3
  local how="exit $rc"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then how="stopped at its limit"; fi
  if [ "$rc" -eq 999 ]; then how="not run: no time left"; fi
  printf '%-36s %-22s %4d s\n' "$name" "$how" "$seconds"
  if [ "$rc" -ne 0 ]; then failed+=("$name ($how)"); fi
}

# step NAME LIMIT_S COMMAND...: runs the command alone, output appended to the log.
step() {
  local name=$1 limit
  limit=$(limit_for "$2")
  shift 2
  if [ "$limit" -lt 15 ]; then verdict "$name" 999 0; return 0; fi
  local s
  s=$(date +%s)
  echo "=== $name (limit $limit s): $*" >> "$LOG"
  timeout -k 10 "$limit" "$@" >> "$LOG" 2>&1
  local rc=$?
  echo "=== $name: exit $rc after $(( $(date +%s) - s )) s" >> "$LOG"
  verdict "$name" "$rc" "$(( $(date +%s) - s ))"
}

# Side-by-side steps: start NAME LIMIT_S COMMAND... puts one in the background (its log under
# logs/), wait_all waits for all of them and appends their logs to the main log.
side=()
start() {
  local name=$1 limit
  limit=$(limit_for "$2")
  shift 2
  if [ "$limit" -lt 15 ]; then verdict "$name" 999 0; return 0; fi
  local file="$OUT/logs/${name//[^a-zA-Z0-9_]/_}.log"
  echo "=== $name (limit $limit s): $*" > "$file"
  timeout -k 10 "$limit" "$@" >> "$file" 2>&1 &
  side+=("$name|$file|$!|$(date +%s)")
}
wait_all() {
  local entry name file pid s rc
  for entry in "${side[@]}"; do
    IFS='|' read -r name file pid s <<< "$entry"
    wait "$pid"
    rc=$?
    cat "$file" >> "$LOG"
    echo "=== $name: exit $rc" >> "$LOG"
    verdict "$name" "$rc" "$(( $(date +%s) - s ))"
  done
  side=()
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv >> "$LOG" 2>&1

# The CUDA kernels Nsight Compute profiles (with the two printed ones and cuBLAS geam), and the
# variants of the wide sweep: those in the README's tables, and the copies every transpose is judged
# beside (the serial CPU add would take most of a minute at 16384²; geam's add is in the 8192² run).
CUDA_VARIANTS=cuda_add_rowmajor,cuda_add_colmajor,cuda_add_shared_paper,cuda_add_shared,cuda_add_vec4,cuda_transpose_naive
CUDA_VARIANTS+=,cuda_transpose_tile_as_printed,cuda_transpose_tile,cuda_transpose_tile_padded,cuda_transpose_tile_multi
CUDA_VARIANTS+=,cuda_geam_add,cuda_geam_transpose
WIDE_VARIANTS=cpu_transpose_blocked,cuda_add_rowmajor,cl_add_rowmajor,cuda_add_vec4,cl_add_vec4
WIDE_VARIANTS+=,cuda_transpose_naive,cl_transpose_naive,cuda_transpose_tile_multi,cl_transpose_tile_multi
WIDE_VARIANTS+=,cuda_geam_transpose,cuda_memcpy,cl_copy

# 1a. The chapter at 8192² float, every variant of "all" (the CPU ones with the host's cores). 150 s:
#     on the H200's host (16 cores) the run with the copy yardsticks passed 70 s, the old limit.
if want chapter; then
step "ch09 8192^2 float" 150 "$CH09" --cl-type gpu --n 8192 --type float --calls 10 --repeat 5 --warmup 1 \
  --json "$OUT/ch09_8192_float.json"
fi

# 1b. The sweeps: the paper's sizes in its add type (int, Tab. 8), every variant; float up to 16384².
if want sweeps; then
step "ch09 sweep paper int" 55 "$CH09" --cl-type gpu --sweep paper --type int --calls 10 --repeat 3 \
  --json "$OUT/ch09_sweep_int.json"
step "ch09 sweep wide float" 150 "$CH09" --cl-type gpu --sweep wide --type float --calls 5 --repeat 3 \
  --variant "$WIDE_VARIANTS" --json "$OUT/ch09_sweep_wide.json"
fi

# 1c. Nsight Compute at 4096² float: global-memory sectors per request (32 B sectors a warp's load or
#     store touches: 4 for a coalesced float access, 32 when every thread needs its own), shared-memory
#     bank conflicts, DRAM bytes and time, for every launch of the chapter's kernels and cuBLAS geam
#     (three each with --calls 1 --repeat 1 --warmup 0: the first call, the timed one, the one with
#     copies); the table keeps the timed one, each kernel's second launch.
if want ncu; then
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
step "ncu 4096^2 float" 40 ncu --metrics "$metrics" -k 'regex:(add_|transpose|geam)' --cache-control none \
  -f -o "$OUT/logs/ch09_ncu" "$CH09" --n 4096 --type float --calls 1 --repeat 1 --warmup 0 --no-verify \
  --variant "$CUDA_VARIANTS"
if [ -f "$OUT/logs/ch09_ncu.ncu-rep" ]; then
  ncu --import "$OUT/logs/ch09_ncu.ncu-rep" --csv --page raw --print-units base > "$OUT/logs/ch09_ncu_raw.csv" 2>> "$LOG"
  python3 scripts/device/matrix_tables.py ncu "$OUT/logs/ch09_ncu_raw.csv" "$OUT/ch09_ncu.csv" >> "$LOG" 2>&1 ||
    failed+=("ncu table (see the log)")
  rm -f "$OUT/logs/ch09_ncu.ncu-rep"  # large; the CSV keeps what the README needs
fi
fi

# 2. Correctness, side by side (they spend most of their time on the host's cores):
#  - ctest: every variant against the CPU reference at the awkward shapes, in every type and beyond
#    the L2, OpenCL on the GPU; the printed kernels' failures; the matrix library; the chapter's
#    CLI, sweep and dump checks; the exercise's worked answer and its grading (the skeleton must
#    fail). Not the emulated kernels' test: a CPU test that CI runs.
#  - compute-sanitizer, launches synchronised so an error points at its kernel: every CUDA variant
#    at the awkward shapes (1x1 ... 4097x33, every type) under memcheck and initcheck, those with
#    shared memory and barriers also under racecheck and synccheck; the printed kernels (up to 2048²)
#    under memcheck; the exercise's answer at the awkward shapes under memcheck and racecheck.
phase_end=$deadline
if want tests; then
  # Passive OpenMP waits: beside the sanitizers, 16-thread CPU variants that spin at their barriers
  # starve each other (the chapter's quick run took over 140 s so); and chapter 10's tests, whose
  # names hold "matrix", belong to gemm.sh.
  start "ctest ch09 (OpenCL on the GPU)" 150 env GPGPU_CL_TYPE=gpu OMP_WAIT_POLICY=passive ctest --test-dir "$BUILD" \
    -R '(ch09|test_matrix$|09_cuda_swizzled)' -E 'test_matrix_kernels_emulated' -LE '^exercise$' -j 6 \
    --output-on-failure --timeout 140
fi
if want sanitizers; then
  # compute-sanitizer's tools through step.sh's sanitizer_start (launches synchronised, each run's
  # hang limit SANITIZER_LIMIT_S: check.sh, which runs every topic's sanitizers at once on the GPU,
  # raises it): the binary and its --gtest_filter.
  sanitizer_start memcheck "$TEST" '*AtAwkwardShapes*:PrintedKernels.*:CudaLaunch.*' memcheck_test_ch09_cuda
  sanitizer_start initcheck "$TEST" '*AtAwkwardShapes*' initcheck_test_ch09_cuda
  # Shared memory and barriers: the kernels that have them (and cuBLAS geam, a library's): the tiles,
  # the persistent transpose's tile loop, the TMA transpose's mbarrier ring and the staged tile copy.
  shared='*AtAwkwardShapes*/cuda_add_shared:*AtAwkwardShapes*/cuda_transpose_tile*:*AtAwkwardShapes*/cuda_transpose_persistent'
  shared+=':*AtAwkwardShapes*/cuda_transpose_tma:*AtAwkwardShapes*/cuda_copy_tiles_staged:*AtAwkwardShapes*/cuda_geam*'
  for tool in racecheck synccheck; do sanitizer_start "$tool" "$TEST" "$shared" "${tool}_test_ch09_cuda"; done
  for tool in memcheck racecheck; do sanitizer_start "$tool" "$SOLUTION" '*-*4600x4600' "${tool}_answer_09"; done
fi
wait_all
sanitizers_wait

# 3. Summary, and the README's tables (python3 reads the JSON files; without them, the log has everything).
echo
echo "== matrix.sh summary ($(( $(date +%s) - t0 )) s; details in matrix_log.txt)"
grep -hE "tests passed|tests failed out of" "$OUT"/logs/*.log 2>/dev/null | sed 's/^/  ctest: /'
# The tables read the chapter's and the sweeps' JSON: a batch of tests or sanitizers alone has none.
if want chapter || want sweeps || want ncu; then
  python3 scripts/device/matrix_tables.py summary "$OUT" || failed+=("summary (see above)")
  python3 scripts/device/matrix_tables.py readme "$OUT" > "$OUT/ch09_readme_tables.md" ||
    failed+=("README tables (see ch09_readme_tables.md)")
fi
if ((${#failed[@]})); then
  echo "  FAILED: ${failed[*]}"
  exit 1
fi
echo "  all steps passed"
