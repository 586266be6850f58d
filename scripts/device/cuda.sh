#!/usr/bin/env bash
# Chapters 03-07b on the GPU machine: tests, compute-sanitizer, the chapter runs at 1024² and 4096²,
# the width sweeps, the benchmarks, Nsight Compute's sectors per request, the compiler's resource
# report and SASS of the fastest kernels, and a short summary at the end.
#
# Usage: bash scripts/device/cuda.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build).
# Files written to $OUT: cuda_log.txt, cuda_runs.json, cuda_sweep.csv, cuda_bench_<chapter>.json,
# cuda_ncu.csv, cuda_sass.txt. Keeps going after a failure and lists every failed step at the end (exit 1 then).
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
BIN="$BUILD/bin"
# Raw results go under $OUT at once, so a run cut short still brings back what it measured.
TMP="$OUT/raw"
mkdir -p "$TMP"
# STEPS picks parts of the batch (default: all); CHAPTER_RUNS picks chapter:size pairs of step 3.
STEPS=${STEPS:-"tests sanitizers exercises chapters sweeps bench ncu sass"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
LOG="$OUT/cuda_log.txt"
: > "$LOG"
t0=$(date +%s)
# step NAME COMMAND...: runs the command, appends its output to the log, records a failure.
source scripts/device/step.sh

# Nsight Compute runs the chapters only to profile them: their tables would only fill the log.
ncu_quiet() { ncu "$@" > /dev/null; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv >> "$LOG" 2>&1

# The CUDA chapters; each has its test (test_<chapter>, its kernels against the CPU reference) and
# its benchmark (bench_<chapter>) in its own folder.
chapters="ch03_cuda_simple ch04_cuda_aligned ch05_cuda_pitched ch06_cuda_shared ch07_cuda_texture ch07b_cuda_past_the_paper"
chapter_dir() { case $1 in ch07b_*) echo "07b_${1#ch07b_}" ;; *) local n=${1#ch}; echo "${n%%_*}_${n#*_}" ;; esac; }

# 1. Tests: every kernel against the CPU reference, chapter smoke and CLI tests, the CUDA layer and
#    its stream limits, benchmark smoke; the exercises' worked answers; the grading tests (skeletons
#    must fail).
if want tests; then
step "ctest cuda" ctest --test-dir "$BUILD" -L cuda -LE '^exercise$' -j 4 --output-on-failure --timeout 600
step "ctest grading" ctest --test-dir "$BUILD" -L grading -R cuda -j 4 --output-on-failure
fi

# 2. compute-sanitizer on every kernel at small, awkward sizes (non-default blocks, partial
#    blocks, the row loop beyond gridDim.y), launches synchronised so errors point at the kernel:
#    each chapter's test runs the kernels that chapter introduces (chapter 07b's prefetch and ring
#    kernels in a test of their own, at eight launch shapes on seven grids).
SMALL='*_2x7_it2_b32:*_17x1023_it8_b96:*_4097x33_it6_b256:*_3x70000_*:*CudaVariant.*:Ch07bPrefetchAndRing.*'
# initcheck is by far the slowest, and seemingly per row of every 2D copy and memset of the pitched
# arrays (chapters 05 onward). Beside the whole device check its two cases of chapter 05, 2 x 7 and 17 x 1023,
# took 340-463 s, chapter 04's four (the same grids, one 1D copy per array) 4 s. It runs the smallest
# case and a wide one of few rows (4097 x 33): partial blocks both ways.
TINY='*_2x7_it2_b32:*_4097x33_it6_b256'
# Every tool on every chapter's test, and on each exercise's worked answer, side by side (step.sh's
# sanitizer_start: the tools spend much of their time on the host's cores, so one after the other
# would add their times; each run has step.sh's hang limit, SANITIZER_LIMIT_S or what is left of
# the budget), then every verdict.
# The exercises' worked answers: the timing tests and exercise 07's texture of the largest width,
# 4 GiB, left out; the answers' kernels run at the checks' own awkward sizes.
EXERCISES="03_cuda_unpadded_borders 04_cuda_aligned_double 05_cuda_pitched_upload 06_cuda_shared_halo \
07_cuda_texture_objects 07b_cuda_symmetric_kernel 07c_cuda_overlapped_sweeps"
if want exercises; then
  for tool in memcheck racecheck synccheck initcheck; do
    for e in $EXERCISES; do
      sanitizer_start "$tool" "$BUILD/exercises/$e/solution_$e" '-Measure.*:*WorksUpToTheLimits*' "${tool}_answer_$e"
    done
  done
  sanitizers_wait
fi
if want sanitizers; then
  for tool in memcheck racecheck synccheck initcheck; do
    filter=$SMALL
    [ "$tool" = initcheck ] && filter=$TINY
    for ch in $chapters; do
      test="$BUILD/chapters/$(chapter_dir "$ch")/test_$ch"
      # Chapter 07b has the most kernels: beside every other topic of the device check its racecheck
      # took 342-427 s of its 540 s limit; in two GoogleTest shards.
      shards=1
      [ "$ch" = ch07b_cuda_past_the_paper ] && [ "$tool" = racecheck ] && shards=2
      sanitizer_shards "$tool" "$test" "$filter" "$shards" "${tool}_$ch"
    done
  done
  sanitizers_wait
fi

# 3. The chapters: the paper's 1024² (inside the 50 MB L2) and 4096² (805 MB of traffic per
#    iteration) with JSON results; fewer iterations at 4096² keep the CPU reference short.
runs=${CHAPTER_RUNS:-$(for n in 1024 4096; do for ch in $chapters; do printf '%s:%s ' "$ch" "$n"; done; done)}
if want chapters; then
for run in $runs; do
  ch=${run%:*}
  n=${run#*:}
  if [ "$n" = 1024 ]; then
    step "$ch 1024" "$BIN/$ch" --nx 1024 --ny 1024 --iters 1000 --warmup 1 --repeat 3 --json "$TMP/${ch}_1024.json"
  else
    step "$ch $n" "$BIN/$ch" --nx "$n" --ny "$n" --iters 100 --warmup 1 --repeat 5 --cpu-sample-iters 1 \
      --json "$TMP/${ch}_$n.json"
  fi
done
fi

# 4. The width sweeps of Fig. 19 / Tables 1-2 (the wide one for chapter 04's alignment).
if want sweeps; then
step "sweep ch03 paper" "$BIN/ch03_cuda_simple" --sweep paper --repeat 3 --csv "$TMP/sweep_ch03.csv"
step "sweep ch04 wide" "$BIN/ch04_cuda_aligned" --sweep wide --iters 200 --csv "$TMP/sweep_ch04.csv"
step "sweep ch05 paper" "$BIN/ch05_cuda_pitched" --sweep paper --repeat 3 --csv "$TMP/sweep_ch05.csv"
step "sweep ch06 paper" "$BIN/ch06_cuda_shared" --sweep paper --repeat 3 --csv "$TMP/sweep_ch06.csv"
fi

# 5. Benchmarks: every chapter's variants at 1024² and 4096², and rows per thread x block size of
#    multirow and symmetric at 4096² (chapter 07b).
if want bench; then
for ch in $chapters; do
  step "benchmarks $ch" "$BIN/bench_$ch" --benchmark_min_time=0.05 --benchmark_filter='/(1024|4096)/' \
    --benchmark_out="$OUT/cuda_bench_$ch.json" --benchmark_out_format=json
done
fi

# 6. Nsight Compute: global-load sectors per request (coalescing), texture-pipe sectors for the
#    texture kernel, L2 and DRAM traffic and time. Two launches each (--iters 2) with the caches left
#    as they are, so the second launch shows the warm L2.
if want ncu; then
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_requests_pipe_tex_mem_texture.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
# Sectors per request do not depend on the size; DRAM bytes do (1024² nearly fits the L2): every
# kernel at 4096², the past-the-paper kernels also at 1024².
for run in ch04_cuda_aligned:4096 ch06_cuda_shared:4096 ch07b_cuda_past_the_paper:4096 ch07b_cuda_past_the_paper:1024; do
  ch=${run%:*}
  n=${run#*:}
  {
    step "ncu $ch $n" ncu_quiet --metrics "$metrics" -k regex:jacobi --cache-control none -f -o "$TMP/ncu_${ch}_$n" \
      "$BIN/$ch" --nx $n --ny $n --iters 2 --no-verify --cpu-sample-iters 0 --no-tune
    ncu --import "$TMP/ncu_${ch}_$n.ncu-rep" --csv --page raw --print-units base > "$TMP/ncu_${ch}_$n.csv" 2>> "$LOG"
  }
done
python3 scripts/device/cuda_ncu_table.py "$TMP" "$OUT/cuda_ncu.csv"
fi

# 7. What the compiler made of the kernels: registers, spills, shared memory; SASS of the multirow
#    and symmetric kernels.
if want sass; then
kernels_lib="$BUILD/kernels/jacobi/cuda/libgpgpu_jacobi_cuda_kernels.a"
{
  echo "### cuobjdump -res-usage (registers, stack, shared memory per kernel)"
  cuobjdump -res-usage "$kernels_lib" 2>&1 | grep -E 'Function|REG' | sed 's/^ *//'
  for k in multirow symmetric; do
    echo "### SASS of jacobi_$k: memory instructions"
    cuobjdump -sass -fun "$(cuobjdump -sass "$kernels_lib" 2>/dev/null |
      grep -oE '_Z[A-Za-z0-9_]*jacobi_'"$k"'[A-Za-z0-9_]*' | head -1)" "$kernels_lib" 2>&1 |
      grep -E 'LDG|STG|LDS|STS|LD\.|ST\.|Function' | sed 's/^ *//' | head -60
  done
} > "$OUT/cuda_sass.txt" 2>&1
fi

# 8. Collect: chapter JSONs into one file, sweep CSVs into one.
python3 - "$TMP" "$OUT" <<'PY'
import glob, json, os, sys
tmp, out = sys.argv[1], sys.argv[2]
runs = {}
for path in sorted(glob.glob(os.path.join(tmp, "*.json"))):
    try:
        runs[os.path.basename(path)[:-5]] = json.load(open(path))
    except Exception as e:
        runs[os.path.basename(path)[:-5]] = {"error": str(e)}
json.dump(runs, open(os.path.join(out, "cuda_runs.json"), "w"), indent=1)
header, lines = None, []
for path in sorted(glob.glob(os.path.join(tmp, "sweep_*.csv"))):
    rows = open(path).read().splitlines()
    if rows:
        header = "chapter," + rows[0]
        lines += [os.path.basename(path)[6:10] + "," + r for r in rows[1:]]
if header:
    open(os.path.join(out, "cuda_sweep.csv"), "w").write("\n".join([header] + lines) + "\n")
PY

# 9. Summary: every variant at both sizes against the limit of its
#    own read:write mix measured in the same run, the floor, the sectors.
python3 - "$OUT" <<'PY'
import csv, json, os, sys
out = sys.argv[1]
runs = json.load(open(os.path.join(out, "cuda_runs.json")))
rows, limits = {}, {}
for name, r in runs.items():
    size = name.rsplit("_", 1)[-1]
    chapter = name.split("_")[0]
    floor = r.get("floor_and_speedup", {})
    for row in r.get("results", []):
        f = floor.get(row["variant"], {})
        rows.setdefault((chapter, row["variant"]), {})[size] = (row["ms_per_step"], 100 * (row["limit_share"] or 0),
                                                                f.get("time_over_floor", float("nan")), row["check"])
        lim = row.get("limit", {})
        limits.setdefault((size, lim.get("name", "?")), (lim.get("gbs") or 0, lim.get("working_set", "")))
    if "results" not in r:
        print("%s: %s" % (name, r.get("error", "no results")))
print("\n%-5s %-10s %10s %7s %10s %7s %8s %6s" % ("ch", "variant", "1024 ms/it", "%limit", "4096 ms/it", "%limit",
                                                  "t/floor", "check"))
for (chapter, variant), by in rows.items():
    a, b = by.get("1024"), by.get("4096")
    cell = lambda v: ("%10.4f %6.1f%%" % (v[0], v[1])) if v else "%10s %7s" % ("-", "-")
    checks = "/".join(v[3] for v in (a, b) if v)
    print("%-5s %-10s %s %s %8.3f %6s" % (chapter, variant, cell(a), cell(b), b[2] if b else float("nan"), checks))
for (size, name), (gbs, ws) in sorted(limits.items()):
    print("limit %s^2: %s %.1f GB/s, %s" % (size, name, gbs, ws))
print("t/floor at 4096^2 = time / (minimum bytes / the limit of the variant's own mix)")
final = runs.get("ch07b_cuda_past_the_paper_4096", {})
f = final.get("floor_and_speedup", {}).get("symmetric")
if f:
    sym = next((row for row in final.get("results", []) if row["variant"] == "symmetric"), {})
    print("FLOOR 4096^2: symmetric %.4f ms/iter, floor %.4f ms/iter (32 B/node at the 7:1 stream limit): ratio %.3f "
          "(target <= 1.05); launch: %s" % (f["ms_per_iter"], f["floor_ms_per_iter"], f["time_over_floor"],
                                            sym.get("launch", "-")))
path = os.path.join(out, "cuda_ncu.csv")
if os.path.exists(path):
    ncu = {}
    for r in list(csv.reader(open(path)))[1:]:
        if r[1] == "2": ncu.setdefault(r[2], {})[r[0]] = r
    print("ncu, 2nd launch: %-18s %9s %9s %9s %12s" % ("kernel", "ld s/r", "st s/r", "tex s/r", "DRAM B/node"))
    for kernel, by in ncu.items():
        a, b = by.get("1024"), by.get("4096")
        dram = "%.1f" % ((float(b[7]) + float(b[8])) / 4096 ** 2) if b and b[7] not in ("", "nan") else "-"
        pick = b or a
        print("  %-30s %9s %9s %9s %12s" % (kernel, pick[3], pick[4], pick[5], dram))
PY
echo "cuda.sh: $steps steps, ${#failed[@]} failed, $(( $(date +%s) - t0 )) s in all (details: cuda_log.txt)"
if ((${#failed[@]})); then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "cuda.sh: every step passed"
