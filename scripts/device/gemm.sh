#!/usr/bin/env bash
# Chapter 10 (matrix multiply, CUDA, cuBLAS and OpenCL) on the GPU machine: its tests (OpenCL on the
# GPU), the four compute-sanitizer tools on its CUDA test at the awkward sizes (step 9's every
# configuration among them), the chapter at 4096³, 4097³ and a rectangular m x n x k in float with
# --tune (step 9's configurations verified, timed, the fastest kept) and at 4096³ in double, the
# paper's sweep n = 16 ... 8192 in float, Nsight Compute's view of steps 7-9 and cuBLAS SGEMM at
# 4096³ (what limits them; steps 1-6 were profiled at 0fa67e0: results/h100/ch10_ncu_4096_float.csv),
# and a short table.
#
# Usage: bash scripts/device/gemm.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build).
# Files written to $OUT: gemm_log.txt (every step's output, the sanitizers' too), ch10_4096_float.json,
# ch10_4097_float.json, ch10_rect_float.json, ch10_4096_double.json, ch10_sweep_float.json,
# ch10_ncu_step9.csv, ch10_ncu_step9_raw.csv, gemm_summary.txt. Keeps going after a failure and lists every
# failed step at the end (exit 1 then).
# Takes under 6 minutes on an H100 with 16 cores. STEPS picks parts (default: all).
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
CH10="$BUILD/bin/ch10_matrix_multiply"
TEST="$BUILD/chapters/10_matrix_multiply/test_ch10_cuda"
TMP=$(mktemp -d)
STEPS=${STEPS:-"tests sanitizers chapter sweep ncu"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
LOG="$OUT/gemm_log.txt"
: > "$LOG"
t0=$(date +%s)
# step NAME COMMAND...; sanitizers_start / sanitizers_wait (the four tools side by side).
source scripts/device/step.sh

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv >> "$LOG" 2>&1

# 1. compute-sanitizer on every CUDA kernel at five small sizes (one element, partial tiles in every
#    dimension, both 16-byte paths; float and double), launches synchronised so an error points at
#    its kernel; cuBLAS left out (not our code). The four tools side by side, each at most 3 minutes,
#    started now and run beside the tests of step 2 (no timing is taken while they run).
if want sanitizers; then
sanitizers_start "$TEST" '*AtSanitizerSizes*:-*cublas*'
fi

# 2. Tests: every variant within γ_k|A||B| at the awkward and the large sizes (CUDA, cuBLAS, OpenCL
#    on the GPU), the library, the emulated kernels, the CLI cases, the quick sweep.
if want tests; then
step "ctest ch10 (OpenCL on the GPU)" env GPGPU_CL_TYPE=gpu ctest --test-dir "$BUILD" \
  -R '(ch10|test_blas|gemm)' -LE '^exercise$' -j 6 --output-on-failure --timeout 300
fi

# 2b. The sanitizers' verdicts (they ran beside the tests: neither step is timed).
if want sanitizers; then
  sanitizers_wait
fi

# 3. The chapter: 4096³ (the chapter's goals), 4097³ (one past every tile), a rectangle no tile divides,
#    all in float and with --tune (cuda_three_stage tries its six configurations, each verified
#    before it is timed, and keeps the fastest: extra.tuning and extra.tuned in the JSON); 4096³ in
#    double (paper 003 sec. 6.6: double 2-3x slower), three timed runs (its ratios, not its decimals).
if want chapter; then
run=(--cl-type gpu --calls 3 --repeat 5 --warmup 1)
step "ch10 4096^3 float --tune" "$CH10" "${run[@]}" --tune --n 4096 --json "$OUT/ch10_4096_float.json"
step "ch10 4097^3 float --tune" "$CH10" "${run[@]}" --tune --n 4097 --json "$OUT/ch10_4097_float.json"
step "ch10 3001x5003x2049 float --tune" "$CH10" "${run[@]}" --tune --m 3001 --n 5003 --k 2049 --json "$OUT/ch10_rect_float.json"
step "ch10 4096^3 double" "$CH10" --cl-type gpu --calls 3 --repeat 3 --warmup 1 --n 4096 --type double \
  --json "$OUT/ch10_4096_double.json"
fi

# 4. The paper's sweep (Tabs. 4-7), float, n = 16 ... 4096 and 8192, every variant (the naive CPU
#    loop up to 512).
if want sweep; then
step "ch10 sweep wide float" "$CH10" --cl-type gpu --sweep wide --calls 2 --repeat 3 --warmup 1 \
  --json "$OUT/ch10_sweep_float.json"
fi

# 5. Nsight Compute at 4096³ float, the timed call of steps 7, 8, 9, 10 (their default configurations) and
#    strict-FP32 cuBLAS (the second launch of each name; steps 1-6 and TF32 cuBLAS were profiled at
#    0fa67e0 and have not changed): the sections that say what limits a kernel (speed of light: SM and memory
#    throughput as % of peak; occupancy and its limiters; launch statistics: registers, shared
#    memory; warp states: the stall reasons; scheduler statistics: eligible warps per cycle; compute
#    and memory workload: each pipe's utilisation, shared-memory wavefronts) and the shared-memory
#    bank conflicts. Sections, not raw metric names, so that the step does not depend on this ncu
#    version's metric names.
if want ncu; then
step "ncu 4096^3 float" ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
  --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
  --kernel-id '::regex:(gemm|sgemm|xmma|cutlass):2' --cache-control none \
  -f -o "$TMP/ncu" "$CH10" --n 4096 --calls 1 --repeat 1 --warmup 0 --no-verify \
  --variant cuda_double_buffer,cuda_tf32_wmma,cuda_three_stage,cuda_prefetch,cublas_sgemm
ncu --import "$TMP/ncu.ncu-rep" --csv --page details --print-units base > "$OUT/ch10_ncu_step9.csv" 2>> "$LOG"
# Every metric those sections collected, the stall reasons among them (smsp__average_warps_issue_stalled_*)
# and the pipes' utilisation (FMA, tensor): what the details page only summarises.
ncu --import "$TMP/ncu.ncu-rep" --csv --page raw --print-units base > "$OUT/ch10_ncu_step9_raw.csv" 2>> "$LOG"
fi

# 5b. (STEPS="step10", not in the default) Step 10 alone: Nsight Compute's full set with warp-stall
#    sampling on one launch of its default configuration at 4096³ (the report and its pages as text),
#    the same set on every configuration a --tune run tries, ptxas's register report of its
#    configurations (cuobjdump -res-usage) and per kernel the FFMA, shared-load, barrier and
#    conversion counts of its SASS (cuobjdump -sass).
if want step10; then
  step "ncu step 10 full" ncu --set full --import-source yes --kernel-name regex:gemm_prefetch --launch-count 1 \
    -f -o "$OUT/ch10_ncu_step10" "$CH10" --variant cuda_prefetch --n 4096 --calls 1 --repeat 1 --warmup 0 --no-verify
  ncu --import "$OUT/ch10_ncu_step10.ncu-rep" --page details > "$OUT/ch10_ncu_step10_details.txt" 2>> "$LOG"
  ncu --import "$OUT/ch10_ncu_step10.ncu-rep" --csv --page raw > "$OUT/ch10_ncu_step10_raw.csv" 2>> "$LOG"
  step "ncu step 10 tune" ncu --set full --kernel-name regex:gemm_prefetch --log-file "$OUT/ch10_ncu_step10_tune_details.txt" \
    "$CH10" --variant cuda_prefetch --n 4096 --calls 1 --repeat 1 --warmup 0 --tune
  lib=$(find "$BUILD" -name 'libgpgpu_blas_cuda_kernels.a' | head -1)
  cuobjdump -res-usage "$lib" 2>> "$LOG" | grep -A1 'gemm_prefetch' > "$OUT/ch10_ptxas_step10.txt"
  cuobjdump -sass "$lib" 2>> "$LOG" | python3 -c '
import re, sys
name, counts = None, {}
def flush():
    if name:
        c = counts
        print(f"{name} FFMA {c.get("FFMA", 0)} LDS {c.get("LDS", 0)} (LDS.128 {c.get("LDS.128", 0)}) STS {c.get("STS", 0)} "
              f"LDG {c.get("LDG", 0)} LDGSTS {c.get("LDGSTS", 0)} BAR {c.get("BAR", 0)} I2F/F2I/RCP {c.get("CVT", 0)}")
for line in sys.stdin:
    m = re.search(r"Function : (\S+)", line)
    if m:
        flush(); name, counts = (m.group(1) if "gemm_prefetch" in m.group(1) else None), {}
        continue
    op = re.search(r"/\*[0-9a-f]{4}\*/\s+(?:@!?P\d+\s+)?([A-Z0-9]+)(\.[A-Z0-9.]+)?", line)
    if name and op:
        base, full = op.group(1), op.group(1) + (op.group(2) or "")
        counts[base] = counts.get(base, 0) + 1
        if full.startswith("LDS.128"): counts["LDS.128"] = counts.get("LDS.128", 0) + 1
        if base in ("I2F", "F2I", "MUFU"): counts["CVT"] = counts.get("CVT", 0) + 1
flush()' > "$OUT/ch10_sass_step10_mix.txt"
fi

# 6. Summary.
echo
echo "== gemm.sh summary ($(( $(date +%s) - t0 )) s; details in gemm_log.txt)"
grep -hE "tests passed|tests failed out of" "$LOG" | sed 's/^/  ctest: /'
# The results' rows, where a step made some (a run of the sanitizers alone makes none).
compgen -G "$OUT/ch10_*.json" > /dev/null && python3 - "$OUT" <<'PY' | tee "$OUT/gemm_summary.txt"
import json, os, sys
out = sys.argv[1]
def load(name):
    path = os.path.join(out, name)
    return json.load(open(path)) if os.path.exists(path) else None
for name in ("ch10_4096_float.json", "ch10_4097_float.json", "ch10_rect_float.json", "ch10_4096_double.json"):
    j = load(name)
    if j is None:
        print(f"  {name}: no result"); continue
    shares = j.get("library_share", {})
    print(f"  {name}: {j['problem']['m']}x{j['problem']['n']}x{j['problem']['k']} {j['problem']['type']}")
    print(f"    {'variant':20} {'ms/call':>9} {'GFLOP/s':>9} {'% lib':>6} {'% FMA':>6} {'err/bound':>9} check")
    best = ("", 0.0)
    for r in j["results"]:
        s = shares.get(r["variant"])
        e = r["extra"]
        fma = "  -   " if e.get("peak_share") is None else "%5.1f%%" % (100 * e["peak_share"])  # '-': tensor cores
        print(f"    {r['variant']:20} {r['ms_per_step']:9.3f} {r['gflops']:9.1f} "
              f"{100*s if s is not None else float('nan'):5.1f}% {fma} "
              f"{e.get('error_over_bound') or float('nan'):9.2g} {r['check']}")
        for t in e.get("tuning", []):  # --tune: every configuration tried, the kept one marked
            mark = "*" if t["configuration"] == e.get("tuned") else " "
            rate = "not timed" if t["gflops"] is None else f"{t['gflops']:9.1f} GFLOP/s"
            print(f"      {mark} {t['configuration']:44} {rate:>17} {t['check']}")
        if r["backend"] == "cuda" and not e.get("library") and e.get("arithmetic") != "TF32" and s is not None and s > best[1]:
            best = (r["variant"], s)
    if best[0]:
        goal = 0.9 if j["problem"]["m"] == 4096 and j["problem"]["type"] == "float" else 0.8
        print(f"    best FP32/FP64 kernel: {best[0]} {100*best[1]:.1f}% of the library (goal >= {100*goal:.0f}%: "
              f"{'met' if best[1] >= goal else 'missed'})")
        tf32 = next((r for r in j["results"] if r["variant"] == "cuda_tf32_wmma"), None)
        fp32 = next((r for r in j["results"] if r["variant"] == best[0]), None)
        if tf32 and fp32:
            x = tf32["gflops"] / fp32["gflops"]
            print(f"    cuda_tf32_wmma / {best[0]}: {x:.2f}x (goal >= 2x: {'met' if x >= 2 else 'missed'})")
    for p in j.get("port_ratios", []):
        print(f"    {p['variant']:18} / {p['original']:18} kernel {p['kernel_ratio']:.2f}x (goal <= 1.11x)")
j = load("ch10_sweep_float.json")
if j is None:
    print("  ch10_sweep_float.json: no result")
else:
    fails = [p for p in j["points"] if p["check"] != "PASS"]
    print(f"  ch10_sweep_float.json: {len(j['points'])} points, {len(fails)} not PASS")
    for r in j.get("port_ratios", []):
        if r["n"] in (16, 256, 2048, 8192):
            pr = r["paper_ratio"]
            print(f"    n={r['n']:5} {r['variant']:16} kernel {r['kernel_ratio']:6.2f}x  with copies "
                  f"{r['with_copies_ratio']:6.2f}x  then {pr if pr is not None else float('nan'):5.1f}x {r['paper_table']}")
PY
rm -rf "$TMP"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED steps:"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
echo "all steps passed"
