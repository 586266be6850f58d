#!/usr/bin/env bash
# The text of chapters 01-08 on the GPU machine: what their READMEs quote beyond the lecture's runs
# (chapter 01's thread sweep, chapters 03 and 06's profiles, chapter 08's division) and the kernels
# first run here: chapter 06's paper-loading kernel (06_02_shared_paper.cu), chapter 07b's cuSPARSE
# peer, chapter 08's correctly rounded division, and the CUDA exercises' checks. Tests, compute-sanitizer on the new kernels at small
# awkward sizes, the chapter runs with --json, Nsight Compute on the questions the READMEs leave open,
# ptxas' resource report for the new kernel, and a summary table last.
#
# Usage: bash scripts/device/text.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build).
# Files in $OUT: text_log.txt (every step's output), ch01_1024.json, ch01_threads.json,
# ch06_{1024,4096}.json, ch07b_{1024,4096}.json, ch08_division_{correct,default}.json, ncu_ch06.csv,
# ncu_ch03_l2.csv, ptxas_06_shared_paper.txt, sanitizer_*.log. Takes, on an H100 with a 16-core
# host, about: tests 2, sanitizers 2, chapters 2.5, ncu 1 minute. STEPS picks parts (default: all),
# e.g. in two shorter runs:
#   STEPS="tests sanitizers" bash scripts/device/text.sh --out DIR
#   STEPS="chapters ncu ptxas" bash scripts/device/text.sh --out DIR
# Keeps going after a failure; exit 1 if any step failed.
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
BIN="$BUILD/bin"
export BUILD BIN OUT
LOG="$OUT/text_log.txt"
: > "$LOG"
t0=$(date +%s)
# shellcheck source=scripts/device/step.sh
source scripts/device/step.sh
STEPS=${STEPS:-"tests sanitizers chapters ncu ptxas"}

# run_step NAME LIMIT COMMAND...: `step` under `timeout` at LIMIT seconds (or what is left of the
# --budget: step.sh leaves a step out when less than 10 s are left); a shell function of this script
# runs in a child bash (the variables it needs are exported).
run_step() {
  local name=$1 limit
  limit=$(device_left "$2")
  shift 2
  if declare -F "$1" > /dev/null; then
    export -f "${1:?}"
    step "$name" timeout "$limit" bash -c '"$@"' run_step "$@"
  else
    step "$name" timeout "$limit" "$@"
  fi
}
want() { [[ " $STEPS " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >> "$LOG" 2>&1

# 1. Tests: the new kernels against the CPU reference (chapter 06's test runs shared and
#    shared_paper; chapter 07b's cuSPARSE test and the CSR assembly), chapter 08's division test on
#    the GPU, the CUDA exercises' worked answers (their checks and Measure tests), the grading tests
#    (each CUDA skeleton must fail by assertions), the exercises' check commands and the READMEs' code.
if want tests; then
run_step "ctest new kernels" 240 ctest --test-dir "$BUILD" -R '^(test_ch06_cuda_shared(\.shard_[0-9]+_of_[0-9]+)?|test_ch07b_cusparse|test_csr_matrix)$' \
  -j 3 --output-on-failure
run_step "ctest ch08 (NVIDIA OpenCL)" 240 env GPGPU_CL_TYPE=gpu ctest --test-dir "$BUILD" -R '^test_ch08_opencl_port$' \
  --output-on-failure
run_step "ctest CUDA exercise answers" 300 ctest --test-dir "$BUILD" -L '^solution$' -R '^solution_0[3-7]' -j 4 --output-on-failure
run_step "ctest CUDA exercise grading" 240 ctest --test-dir "$BUILD" -L '^grading$' -R '^grading\.0[3-7]' -j 4 --output-on-failure
run_step "ctest docs" 120 ctest --test-dir "$BUILD" -R '^(exercises.check_commands|docs.readme_snippets)' --output-on-failure
fi

# 2. compute-sanitizer on what is new, at small awkward sizes (partial blocks, one column, rows
#    beyond one block), launches synchronised so that an error points at its kernel. The programs of
#    one tool run side by side; initcheck, the slowest, gets the two smallest cases.
if want sanitizers; then
paper='*/shared_paper_2x7_it2_b32:*/shared_paper_17x1023_it8_b96:*/shared_paper_4097x33_it6_b256:*CudaVariant.*/shared_paper'
sparse='*_2x7_it2_b32:*_17x1023_it8_b96:*_4097x33_it6_b256:Ch07bCusparse.*'
paper_tiny='*/shared_paper_2x7_it2_b32:*/shared_paper_17x1023_it8_b96'
sparse_tiny='*_2x7_it2_b32:*_17x1023_it8_b96'
sanitize() {  # sanitize TOOL FILTER_CH06 FILTER_CH07B
  local tool=$1 rc=0 pids=() name
  set -f  # the filters' * are gtest's, not the shell's
  local -A runs=(
    [ch06]="$BUILD/chapters/06_cuda_shared/test_ch06_cuda_shared --gtest_filter=$2"
    [ch07b_cusparse]="$BUILD/chapters/07b_cuda_past_the_paper/test_ch07b_cusparse --gtest_filter=$3"
    [ex03]="$BUILD/exercises/03_cuda_unpadded_borders/solution_03_cuda_unpadded_borders --gtest_filter=-Measure.*:*513x1024*"
    [ex06]="$BUILD/exercises/06_cuda_shared_halo/solution_06_cuda_shared_halo --gtest_filter=-Measure.*")
  for name in "${!runs[@]}"; do
    # shellcheck disable=SC2086  # the command line is split on purpose
    GPGPU_CUDA_SYNC=1 compute-sanitizer --tool "$tool" --error-exitcode 3 ${runs[$name]} --gtest_brief=1 \
      > "$OUT/sanitizer_${tool}_$name.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || rc=$?; done
  set +f
  tail -n 3 "$OUT"/sanitizer_"$tool"_*.log
  return $rc
}
run_step "sanitizer memcheck" 240 sanitize memcheck "$paper" "$sparse"
run_step "sanitizer racecheck" 240 sanitize racecheck "$paper" "$sparse_tiny"
run_step "sanitizer synccheck" 240 sanitize synccheck "$paper" "$sparse_tiny"
run_step "sanitizer initcheck" 240 sanitize initcheck "$paper_tiny" "$sparse_tiny"
fi

# 3. The chapter runs the READMEs quote, with --json: chapter 01 at the paper's size (the separate
#    layout, the CUDA chapters' CPU baseline, on 1 and 16 threads: its shares of the matched 11:1 host
#    stream) and its thread scaling at 4096²; chapters 06 and 07b with the new
#    variants at 1024² and 4096²; chapter 08 on the NVIDIA GPU with and without correctly rounded
#    division (its error beside CUDA's, the same run).
if want chapters; then
run_step "ch01 1024" 120 "$BIN/ch01_cpu_jacobi" --variant separate,separate_openmp --repeat 3 --warmup 1 \
  --json "$OUT/ch01_1024.json"
run_step "ch01 threads 4096" 120 "$BIN/ch01_cpu_jacobi" --variant separate_openmp --threads 1,2,4,8,16 --nx 4096 --ny 4096 \
  --iters 50 --repeat 3 --json "$OUT/ch01_threads.json"
for ch in ch06_cuda_shared ch07b_cuda_past_the_paper; do
  short=${ch%%_cuda*}
  run_step "$short 1024" 120 "$BIN/$ch" --nx 1024 --ny 1024 --iters 1000 --warmup 1 --repeat 3 --json "$OUT/${short}_1024.json"
  run_step "$short 4096" 120 "$BIN/$ch" --nx 4096 --ny 4096 --iters 100 --warmup 1 --repeat 5 --cpu-sample-iters 1 \
    --json "$OUT/${short}_4096.json"
done
for division in correct default; do
  run_step "ch08 division $division" 120 "$BIN/ch08_opencl_port" --cl-type gpu --cl-division "$division" --repeat 3 \
    --json "$OUT/ch08_division_$division.json"
done
fi

# 4. Nsight Compute. Chapter 06: sectors per request and the bytes behind the L1 of shared and
#    shared_paper at 4096² (README: 4.00 against a predicted 3.44). Chapter 03 at 1024²: does the 48 MiB
#    working set stay in the 50 MiB L2 from one iteration to the next (the L2 hit rate of the last of
#    four launches, and its DRAM bytes)?
ncu_csv() {  # ncu_csv REPORT CSV: the raw page of a report as CSV
  ncu --import "$1" --csv --page raw --print-units base > "$2"
}
if want ncu; then
m=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
m+=,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
run_step "ncu ch06 4096" 180 ncu --metrics "$m" -k regex:jacobi --cache-control none -f -o "$OUT/ncu_ch06" \
  "$BIN/ch06_cuda_shared" --nx 4096 --ny 4096 --iters 2 --no-verify --cpu-sample-iters 0
run_step "ncu ch06 csv" 60 ncu_csv "$OUT/ncu_ch06.ncu-rep" "$OUT/ncu_ch06.csv"
m=lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
m+=,gpu__time_duration.sum
run_step "ncu ch03 1024 L2" 120 ncu --metrics "$m" -k regex:jacobi --cache-control none --replay-mode application \
  -f -o "$OUT/ncu_ch03_l2" "$BIN/ch03_cuda_simple" --nx 1024 --ny 1024 --iters 4 --no-verify --cpu-sample-iters 0
run_step "ncu ch03 csv" 60 ncu_csv "$OUT/ncu_ch03_l2.ncu-rep" "$OUT/ncu_ch03_l2.csv"
rm -f "$OUT"/*.ncu-rep
fi

# 5. What ptxas made of the new kernel (registers, spills, shared memory): chapter 07b's table.
if want ptxas; then
ptxas_report() (  # a subshell: pipefail stays inside
  set -o pipefail
  cuobjdump -res-usage "$BUILD/kernels/jacobi/cuda/libgpgpu_jacobi_cuda_kernels.a" | grep -A1 -E 'Function .*shared' |
    sed 's/^ *//' > "$OUT/ptxas_06_shared_paper.txt"
)
run_step "ptxas report 06_02_shared_paper" 60 ptxas_report
fi

# 6. Summary: every variant of every run, its time, its share of the
#    limit of its own mix, its error and check; the ncu figures.
python3 - "$OUT" <<'PY'
import csv, glob, json, os, sys
out = sys.argv[1]
print("\n%-22s %-22s %10s %7s %9s %6s  %s" % ("run", "variant", "ms/step", "%limit", "rel.err", "check", "limit"))
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    name = os.path.basename(path)[:-5]
    try:
        r = json.load(open(path))
    except Exception as e:
        print("%-22s unreadable: %s" % (name, e)); continue
    for row in r.get("results", []):
        lim = row.get("limit") or {}
        share = row.get("limit_share")
        print("%-22s %-22s %10.4f %6.1f%% %9.2e %6s  %s %.0f GB/s" % (
            name, row["variant"][:22], row.get("ms_per_step") or float("nan"), 100 * share if share else float("nan"),
            row.get("rel_error_l2") or float("nan"), row.get("check", "?"), lim.get("name", "-"), lim.get("gbs") or 0))
    for s in r.get("skipped", []):
        print("%-22s skipped: %s" % (name, s))
def raw(path):
    rows = [r for r in csv.reader(open(path)) if r]
    head = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
    if head is None: return []
    return [dict(zip(rows[head], r)) for r in rows[head + 1:] if len(r) == len(rows[head]) and r[0].strip().isdigit()]
def num(d, k):
    try: return float(d.get(k, "nan").replace(",", ""))
    except ValueError: return float("nan")
p = os.path.join(out, "ncu_ch06.csv")
if os.path.exists(p):
    print("ncu ch06 4096^2: kernel, ld sectors/request, L2 read B/node, DRAM read+write B/node")
    for d in raw(p):
        n = 4096 ** 2
        print("  %-40s %6.2f %7.1f %7.1f" % (d["Kernel Name"][:40],
              num(d, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") / num(d, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
              32 * num(d, "lts__t_sectors_srcunit_tex_op_read.sum") / n,
              (num(d, "dram__bytes_read.sum") + num(d, "dram__bytes_write.sum")) / n))
p = os.path.join(out, "ncu_ch03_l2.csv")
if os.path.exists(p):
    print("ncu ch03 1024^2, launch by launch: L2 hit %, DRAM read B/node, time us")
    for i, d in enumerate(raw(p)):
        print("  launch %d: %5.1f%% %7.1f %8.1f" % (i + 1, num(d, "lts__t_sector_hit_rate.pct"),
              num(d, "dram__bytes_read.sum") / 1024 ** 2, num(d, "gpu__time_duration.sum") / 1e3))
PY
echo "text.sh: $steps steps, ${#failed[@]} failed, $(( $(date +%s) - t0 )) s in all (details: text_log.txt)"
if ((${#failed[@]})); then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "text.sh: every step passed"
