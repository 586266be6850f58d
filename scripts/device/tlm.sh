#!/usr/bin/env bash
# Chapter 11 (paper 002, the SCN-TLM solver) on the GPU machine: its tests (CUDA, OpenCL on the GPU
# and on PoCL, the exercise), compute-sanitizer's four tools at small awkward sizes, the chapter
# runs whose JSON goes under results/<machine>/, the mesh-size sweep of CUDA against OpenCL (paper 002,
# Fig. 11), Nsight Compute's sectors per request for the array of structures against the coalesced
# layout (Fig. 5's 8x), and a short summary at the end.
#
# Usage: bash scripts/device/tlm.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build).
# Files written to $OUT: tlm_log.txt (everything), $OUT/results/ch11_*.json (commit these, then run
# python3 scripts/report/readme_tables.py), tlm_sweep.csv, tlm_ncu.csv, raw/ (the sweep's and the
# thread counts' JSON, sanitizer logs, ncu reports). Keeps going after a failure and
# lists every failed step at the end (exit 1 then). Takes under 5 minutes on an H100 with 16 cores.
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
BIN="$BUILD/bin"
CH11="$BIN/ch11_tlm_coalesced"
TEST_CUDA="$BUILD/chapters/11_tlm_coalesced/test_ch11_cuda"
RESULTS="$OUT/results"  # the runs to commit under results/<machine>/
TMP="$OUT/raw"
mkdir -p "$RESULTS" "$TMP"
# STEPS picks parts of the batch (default: all).
STEPS=${STEPS:-"tests sanitizers chapters spectra sweep ncu"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
LOG="$OUT/tlm_log.txt"
: > "$LOG"
t0=$(date +%s)
# step NAME COMMAND...: runs the command, appends its output to the log, records a failure (a skip,
# exit 77, counts as one: the GPU should be there). Every command here runs under `timeout`.
source scripts/device/step.sh

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv >> "$LOG" 2>&1

# 1. Tests. Every ch11/tlm test on the GPU: the CUDA variants at the awkward sizes and at
#    256 x 256 x 64 (beyond the L2), the OpenCL variants on NVIDIA's platform (the default prefers a
#    GPU), the CUDA kernels on the CPU emulation, the physics, the options and their exit-2 cases,
#    the exercise's worked answer and grading (the unsolved skeleton, label exercise, fails by
#    design). Then the OpenCL test and the exercise on PoCL, as CI runs them.
if want tests; then
  step "ctest tlm (GPU)" timeout 120 ctest --test-dir "$BUILD" -R 'tlm|ch11|11_tlm' -LE '^exercise$' -j 8 --output-on-failure
  step "ctest tlm opencl (PoCL)" timeout 60 env GPGPU_CL_TYPE=cpu ctest --test-dir "$BUILD" \
    -R 'test_ch11_opencl|solution_11_tlm|grading.11_tlm' -j 4 --output-on-failure
fi

# 2. compute-sanitizer, each tool on every CUDA variant (aos, coalesced, fused, fused_half) at the
#    small awkward sizes (1 node, 2x3x5, rows of 63, 67 and 130 against 64-thread blocks, the guide,
#    the filter's irises): all cases but the 4-million-node one, whose CPU reference only costs time
#    here. initcheck shadows every byte: the four smallest cases suffice. racecheck looks for hazards
#    in shared memory, which no TLM kernel uses (they exchange neighbours through global memory and
#    warp shuffles, which synccheck watches): it runs on the small cases too, which every kernel
#    launches in, and no longer spends minutes on the others (over 340 s beside the other topics on
#    an H200, more than any other tool). Launches synchronised, so an error names its kernel. The four
#    tools run side by side, memcheck and synccheck each in three shards of the tests (alone on the
#    GPU beside the other topics' sanitizers they took 364 and 286 s in one process each).
if want sanitizers; then
  SMALL='*-*256x256x64*'
  TINY='*1x1x1*:*2x3x5*:*63x2x3*:*filter_10x5x47*:Ch11CudaVariants.HalfStorageIsReallyHalf'
  for tool in memcheck synccheck; do sanitizer_shards "$tool" "$TEST_CUDA" "$SMALL" 3; done
  for tool in racecheck initcheck; do sanitizer_start "$tool" "$TEST_CUDA" "$TINY"; done
  sanitizers_wait
fi

# 3. The chapter runs committed under results/<machine>/ (every run verifies every variant against the
#    CPU double-precision reference and checks the physics before it prints a number):
#    - cavity and waveguide at their default sizes and steps: every variant, the resonances and
#      the cut-off;
#    - the paper's workload, the iris filter of 150,016 nodes (Fig. 7: the GPU against 1 to 4 CPUs):
#      every variant on all 16 cores, then the OpenMP variant on 2 and 4 (1 is cpu_serial; these two
#      go to raw/, so that results/ has one run per mesh for the README tables);
#    - the goal, 256^3 (16.8 million nodes): the GPU variants, 60 steps (the CPU reference in
#      double precision does 1 billion node updates for them, about 25 s on 16 cores; the source peaks
#      at step 48, so the fields are well inside FP16's range for the half variant's check).
if want chapters; then
  step "ch11 cavity" timeout 60 "$CH11" --scenario cavity --threads 16 --repeat 3 --json "$RESULTS/ch11_cavity.json"
  step "ch11 waveguide" timeout 45 "$CH11" --scenario waveguide --threads 16 --repeat 3 --json "$RESULTS/ch11_waveguide.json"
  step "ch11 filter (16 threads)" timeout 60 "$CH11" --scenario filter --steps 500 --threads 16 --repeat 3 \
    --json "$RESULTS/ch11_filter.json"
  for t in 2 4; do
    step "ch11 filter (cpu_openmp $t)" timeout 30 "$CH11" --scenario filter --steps 500 --threads $t --repeat 3 \
      --variant cpu_openmp --json "$TMP/ch11_filter_threads$t.json"
  done
  step "ch11 cavity 256^3" timeout 150 "$CH11" --nx 256 --ny 256 --nz 256 --steps 60 --repeat 3 \
    --variant cuda_aos,cuda_coalesced,cuda_fused,cuda_fused_half,opencl_coalesced,opencl_fused \
    --json "$RESULTS/ch11_cavity_256.json"
fi

# What half storage does to the spectrum (chapter 11's README): the 23 x 17 x 11 box for 20000 steps,
# probes dumped to $OUT/ch11_spectra (commit the dump's reference_probe.npy, probe_cuda_fused.npy,
# probe_cuda_fused_half.npy and dump_manifest.json as results/<gpu>/ch11_spectra/;
# scripts/report/readme_plots.py update ch11_half_spectrum draws the README's figure from
# results/h200/ch11_spectra).
if want spectra; then
  step "ch11 spectra 23x17x11" timeout 300 "$CH11" --scenario cavity --nx 23 --ny 17 --nz 11 \
    --steps 20000 --threads 16 --repeat 1 --variant cpu_openmp,cuda_fused,cuda_fused_half,opencl_fused \
    --dump "$OUT/ch11_spectra" --json "$TMP/ch11_spectra.json"
fi

# 4. CUDA against OpenCL against mesh size (Fig. 11: OpenCL equal from about 10 million nodes):
#    cubes of 32^3 (33 thousand nodes) to 215^3 (9.9 million), the fused and the paper's two-kernel
#    step in both; 256^3 is the run above. 100 steps each (the reference's cost grows with nodes x
#    steps: about 25 s at 215^3 on 16 cores).
if want sweep; then
  for n in 32 64 128 215; do
    step "sweep ${n}^3" timeout 90 "$CH11" --nx $n --ny $n --nz $n --steps 100 --repeat 3 \
      --variant cuda_coalesced,cuda_fused,opencl_coalesced,opencl_fused --json "$TMP/sweep_$n.json"
  done
fi

# 5. Nsight Compute: global-memory sectors per request of each kernel (the array of structures
#    against the coalesced layout: 4 sectors of 32 B per request when a warp's 32 floats are
#    contiguous), DRAM bytes and time, at 128^3, the first 4 launches of each variant (two steps of
#    the two-kernel variants, four of the fused ones). One ncu run per variant (--launch-count counts
#    the launches of the whole run). The FP32 variants run 2 steps (exact against the reference);
#    the FP16 one 60: after 2 steps the source has put in 1e-14 V, below FP16's smallest number,
#    and its check fails (rel. error 1) as it should.
if want ncu; then
  metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
  rm -f "$TMP"/ncu_tlm_*.csv
  for v in cuda_aos cuda_coalesced cuda_fused cuda_fused_half; do
    ncu_steps=2
    [ "$v" = cuda_fused_half ] && ncu_steps=60
    step "ncu 128^3 $v" timeout 60 ncu --metrics "$metrics" -k regex:tlm_ --launch-count 4 --cache-control none -f \
      -o "$TMP/ncu_tlm_$v" "$CH11" --nx 128 --ny 128 --nz 128 --steps $ncu_steps --repeat 1 --warmup 0 --variant $v
    ncu --import "$TMP/ncu_tlm_$v.ncu-rep" --csv --page raw --print-units base > "$TMP/ncu_tlm_$v.csv" 2>> "$LOG"
  done
fi

# 6. Summary: the results' rows, the sweep as a CSV, the sectors per request.
echo
echo "== tlm.sh summary: $steps steps, $(( $(date +%s) - t0 )) s (details in tlm_log.txt)"
grep -E "^=== .*: exit [0-9]+ after" "$LOG" | sed -E 's/^=== (.*): exit ([0-9]+) after ([0-9]+) s/  \1: exit \2, \3 s/'
grep -hE "tests passed|tests failed out of" "$LOG" | sed 's/^/  ctest: /'
python3 - "$OUT" "$RESULTS" "$TMP" <<'PY'
import csv, glob, json, os, re, sys
out, results, tmp = sys.argv[1:4]
def load(path):
    try:
        j = json.load(open(path))
    except (OSError, ValueError):
        return None
    return j if j.get("schema_version") == 2 else None
paths = sorted(glob.glob(os.path.join(results, "ch11_*.json"))) + sorted(glob.glob(os.path.join(tmp, "ch11_*.json")))
if paths:  # none after a run of the sanitizers alone
    print(f"  {'run':22} {'variant':18} {'MNodes/s':>9} {'GB/s':>7} {'% limit':>8} {'error':>8} {'check':>6}")
for path in paths:
    j = load(path)
    run = os.path.basename(path)[5:-5]
    if j is None:
        print(f"  {run:22} (no result)")
        continue
    for r in j["results"]:
        share = 100 * r["limit_share"] if r.get("limit_share") is not None else float("nan")
        print(f"  {run:22} {r['variant']:18} {r['items_per_s'] / 1e6:9.1f} {r['gbs_min']:7.1f} {share:7.1f}% "
              f"{r.get('rel_error_l2') or float('nan'):8.1e} {r['check']:>6}")
    for c in j.get("physics", []):
        print(f"  {run:22} physics {c.get('name', '?')}: {'PASS' if c.get('pass') else 'FAIL'}")
    for c in j.get("comparisons", []):
        print(f"  {run:22} {c['what']}: {c['ratio']:.2f} ({c['first']} / {c['second']})")
rows = [["nodes", "variant", "mnodes_per_s", "gbs_min", "limit_share", "ms_per_step", "check"]]
for path in glob.glob(os.path.join(tmp, "sweep_*.json")) + glob.glob(os.path.join(results, "ch11_cavity_256.json")):
    j = load(path)
    if j is None:
        continue
    for r in j["results"]:
        rows.append([j["problem"]["nodes"], r["variant"], r["items_per_s"] / 1e6, r["gbs_min"], r.get("limit_share"),
                     r["ms_per_step"], r["check"]])
rows[1:] = sorted(rows[1:], key=lambda r: (r[1], r[0]))
csv.writer(open(os.path.join(out, "tlm_sweep.csv"), "w")).writerows(rows)
rate = {(r[0], r[1]): r[2] for r in rows[1:]}
for n in sorted({r[0] for r in rows[1:]}):
    ratios = [f"{k}: OpenCL/CUDA {rate[(n, 'opencl_' + k)] / rate[(n, 'cuda_' + k)]:.2f}"
              for k in ("coalesced", "fused") if (n, "opencl_" + k) in rate and (n, "cuda_" + k) in rate]
    print(f"  sweep {n:>9} nodes: " + ", ".join(ratios))
paths = [os.path.join(tmp, f"ncu_tlm_{v}.csv") for v in ("cuda_aos", "cuda_coalesced", "cuda_fused", "cuda_fused_half")]
paths = [p for p in paths if os.path.exists(p)]
if paths:
    seen = {}
    out_rows = [["launch", "kernel", "ld_sectors_per_request", "st_sectors_per_request", "dram_read_bytes",
                 "dram_write_bytes", "time_ns"]]
    def num(v):
        try: return float(v.replace(",", ""))
        except ValueError: return float("nan")
    rows_of = []
    for path in paths:
        table = [r for r in csv.reader(open(path)) if r]
        head = next((i for i, r in enumerate(table) if "Kernel Name" in r), None)
        rows_of += [(table[head], r) for r in table[head + 1:]] if head is not None else []
    for header, r in rows_of:
        if len(r) != len(header) or not r[0].strip().isdigit():
            continue
        d = dict(zip(header, r))
        v = lambda m: num(d.get(m, "nan"))
        # tlm_scatter<...AosAddress> and tlm_scatter<...SegmentedAddress> are the paper's two kernels:
        # keep the template argument's last name.
        found = re.search(r"(tlm_\w+)(?:<([^>]*)>)?", d["Kernel Name"])
        name = (found.group(1) + (f"<{found.group(2).split('::')[-1].strip()}>" if found.group(2) else "")
                if found else d["Kernel Name"][:40])
        seen[name] = seen.get(name, 0) + 1
        ld = v("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") / max(v("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 1)
        st = v("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") / max(v("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 1)
        out_rows.append([seen[name], name, f"{ld:.2f}", f"{st:.2f}", v("dram__bytes_read.sum"), v("dram__bytes_write.sum"),
                         v("gpu__time_duration.sum")])
    csv.writer(open(os.path.join(out, "tlm_ncu.csv"), "w")).writerows(out_rows)
    for r in out_rows[1:]:
        print(f"  ncu {r[1]:26} launch {r[0]}: {r[2]} sectors/load request, {r[3]} sectors/store request, "
              f"{r[6] / 1e3:.1f} us")
PY
if ((${#failed[@]})); then
  echo "  FAILED: ${failed[*]}"
  exit 1
fi
echo "  all steps passed"
