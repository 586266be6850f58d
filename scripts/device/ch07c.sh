#!/usr/bin/env bash
# Chapter 07c (temporal blocking) on the GPU machine: its tests (every variant bit for bit against
# 07b's symmetric kernel, overlapped_scaled against its own arithmetic on the CPU, all against the
# CPU reference), compute-sanitizer's four tools on the tests at small sizes, then the chapter at
# 1024², 2048², 8192² and 16384² for s = 1, 2, 3, 4, 6, 8 with the one-sweep kernels and the floor in
# the same run (JSON), the benchmark, and a short table of time per iteration and time/floor against s.
#
# Usage: bash scripts/device/ch07c.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build. STEPS picks parts (default "tests sanitizers chapters bench"); SIZES and
# SWEEPS the runs (default "1024 2048 8192 16384" and "1 2 3 4 6 8"), VARIANTS their --variant list (default all: 07b's
# multirow and symmetric beside every 07c variant, overlapped_unrolled, overlapped_persistent and overlapped_scaled among
# them); SANITIZER_FILTER the tests the sanitizers run (a --gtest_filter; default: every s on one grid, the
# smallest grids at three s, the other tiles, the refusals, overlapped_persistent's trips and tile counts;
# overlapped_scaled is in the first three). Files written to DIR:
# ch07c_log.txt, ch07c_<n>.json (every s of SWEEPS in one run), ch07c_bench.json, ch07c_summary.txt. Keeps going after a
# failure, exit 1 then.
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
((${#DEVICE_ARGS[@]} == 0)) || device_die "unknown option '${DEVICE_ARGS[0]}' (see --help)"
BIN="$BUILD/bin"
CH="$BIN/ch07c_cuda_temporal_blocking"
TEST="$BUILD/chapters/07c_cuda_temporal_blocking/test_ch07c_cuda_temporal_blocking"
TMP="$OUT/raw"
mkdir -p "$TMP"
STEPS=${STEPS:-"tests sanitizers chapters bench"}
SIZES=${SIZES:-"1024 2048 8192 16384"}
SWEEPS=${SWEEPS:-"1 2 3 4 6 8"}
# VARIANTS: the chapter's --variant list for the size runs (default all).
want() { [[ " $STEPS " == *" $1 "* ]]; }
LOG="$OUT/ch07c_log.txt"
: > "$LOG"
t0=$(date +%s)
source scripts/device/step.sh

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv >> "$LOG" 2>&1

# 1. Tests: the kernels on the GPU and on the CPU emulation, the chapter's smoke and CLI tests, the
#    exercise's worked answer and grading tests (not its check, which fails until it is solved).
if want tests; then
  step "ctest 07c" ctest --test-dir "$BUILD" -R '07c' -LE '^exercise$' -j 4 --output-on-failure --timeout 900
fi

# 2. compute-sanitizer's four tools side by side on the small sizes, launches synchronised so that
#    an error points at its kernel. Not every test case: the tools' cost is in the host code around
#    the kernels, and several processes on one GPU take turns (in one run of the whole device check,
#    initcheck of the 64 grid-and-s cases and of the 700 x 400 persistent case did not end within
#    540 s, and racecheck of the tuner took 335 s). SANITIZED runs every kernel at every s on a grid
#    of several tiles both ways, none whole (97 x 61), the one-node, one-row and one-column grids at
#    three s, overlapped_persistent on its one-tile grids at every s and on its many-tiles grid (14
#    rows high, racecheck's slowest case) at s = 3, the other tiles and the refusals; the suite runs
#    every case without the tools. The tuner (timed launches of the same kernels at other tiles) runs
#    under memcheck only. initcheck, the slowest, seemingly per row of every 2D copy and memset of
#    the pitched arrays, runs INITCHECKED, a few cases of few rows: every array these kernels read is set whole (cudaMemset2D, padding and ghost
#    rows included) when it is made (PitchedSolver), so more cases could not find an unwritten byte;
#    it is there to catch a future buffer that is not.
SANITIZED='*EverySweepsPerTrip*/grid_97x61_s*:*EverySweepsPerTrip*/grid_1x97_s3'
for k in 1 3 8; do SANITIZED+=":*EverySweepsPerTrip*/grid_1x1_s$k:*EverySweepsPerTrip*/grid_97x1_s$k"; done
SANITIZED+=':*OverlappedPersistent*/grid_1x1_*:*OverlappedPersistent*/grid_5x7_*:*OverlappedPersistent*/grid_24011x14_s3'
SANITIZED+=':Ch07c.OtherTiles*:Ch07c.Refuses*'
INITCHECKED='*EverySweepsPerTrip*/grid_1x1_s8:*EverySweepsPerTrip*/grid_97x1_s3:*OverlappedPersistent*/grid_5x7_s3'
INITCHECKED+=':*OverlappedPersistent*/grid_24011x14_s3:Ch07c.Refuses*'
if want sanitizers; then
  if [ -n "${SANITIZER_FILTER:-}" ]; then
    sanitizers_start "$TEST" "$SANITIZER_FILTER"
  else
    # racecheck, the slowest tool here, in two GoogleTest shards; the tuner under memcheck alone.
    for tool in memcheck synccheck; do sanitizer_start "$tool" "$TEST" "$SANITIZED"; done
    sanitizer_start initcheck "$TEST" "$INITCHECKED"
    sanitizer_shards racecheck "$TEST" "$SANITIZED" 2
    sanitizer_start memcheck "$TEST" "Ch07c.Tuning*" memcheck_tuning
  fi
  sanitizers_wait
fi

# 3. The chapter: every variant at each size, each kernel that depends on s once per s of the list
#    (one process per size: one reference, one spectrum, one floor for every s), the one-sweep
#    kernels and their floor in the same run. Fewer iterations at the large sizes keep the CPU
#    reference short; 240 and 24 are multiples of every s of the default list.
if want chapters; then
  for n in $SIZES; do
    iters=1000
    ((n >= 8192)) && iters=48
    ((n >= 16384)) && iters=24
    ((n == 2048)) && iters=240
    step "ch07c ${n} s=${SWEEPS// /,}" "$CH" --nx "$n" --ny "$n" --iters "$iters" --sweeps-per-trip "${SWEEPS// /,}" \
      --variant "${VARIANTS:-all}" --warmup 1 --repeat 3 --cpu-sample-iters 1 --json "$TMP/ch07c_${n}.json"
  done
fi

# 4. The benchmark: s = 1 .. 8 at 4096², and the variants (overlapped_unrolled, overlapped_persistent and
#    overlapped_scaled among them, s = 4) at 256², 1024², 4096².
if want bench; then
  step "bench ch07c" "$BIN/bench_ch07c_cuda_temporal_blocking" --benchmark_min_time=0.05 \
    --benchmark_out="$OUT/ch07c_bench.json" --benchmark_out_format=json
fi

# 5. Summary: ms/iter and time/floor (the symmetric storage's one-sweep floor) per size, variant and s.
# The runs' table, where the chapter ran (a run of the sanitizers alone makes no JSON).
compgen -G "$TMP/ch07c_*.json" > /dev/null && python3 - "$TMP" "$OUT" <<'PY' | tee "$OUT/ch07c_summary.txt"
import glob, json, os, sys
sys.path.insert(0, "scripts/report")
from results import read_result, sweeps_rows  # the reading the README's table and plot use
tmp, out = sys.argv[1], sys.argv[2]
runs = [read_result(path, "gpu") for path in sorted(glob.glob(os.path.join(tmp, "ch07c_*.json")))]
json.dump({os.path.splitext(r.name)[0]: r.doc for r in runs if r.doc}, open(os.path.join(out, "ch07c_runs.json"), "w"), indent=1)
print("%-6s %-20s %3s %10s %10s %8s %6s" % ("n", "variant", "s", "ms/iter", "t/floor", "x floor", "check"))
for run in sorted((r for r in runs if r.doc), key=lambda r: r.doc.get("problem", {}).get("nx", 0)):
    n = run.doc.get("problem", {}).get("nx", 0)
    floor = run.doc.get("floor_and_speedup", {})
    for v, s, row in sorted(sweeps_rows(run), key=lambda t: (t[1], t[0])):
        t = floor.get(row["variant"], {}).get("time_over_floor") or float("nan")
        print("%-6d %-20s %3d %10.4f %10.3f %8.2f %6s" % (n, v, s, row["ms_per_step"], t,
                                                           1 / t if t == t and t > 0 else float("nan"), row["check"]))
PY
echo "ch07c.sh: $steps steps, ${#failed[@]} failed, $(( $(date +%s) - t0 )) s in all (details: ch07c_log.txt)"
if ((${#failed[@]})); then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "ch07c.sh: every step passed"
