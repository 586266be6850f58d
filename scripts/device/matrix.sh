#!/usr/bin/env bash
# Chapter 09 (matrix add and transpose, CUDA and OpenCL) on the GPU machine: its tests, the four
# compute-sanitizer tools on its CUDA test at small awkward sizes, the chapter at 8192² float and
# 4096² int, the paper's sweep (int, 16 ... 4096) and the wide one (float, up to 16384), Nsight
# Compute's sectors per request and shared-memory bank conflicts of every CUDA kernel at 4096², and a
# short table at the end.
#
# Run from the repository root after `source .device/gpu-setup.sh`, with the project built in
# build-h100/ (cmake --preset h100 && cmake --build --preset h100) and OUT set to a writable folder:
#   OUT=/tmp/out bash scripts/device/matrix.sh
# Files written to $OUT (6): matrix_log.txt (every step's output, the sanitizers' too),
# ch09_8192_float.json, ch09_4096_int.json, ch09_sweep_int.json, ch09_sweep_wide.json, ch09_ncu.csv.
# Keeps going after a failure and lists every failed step at the end (exit 1 then). Budget: under 8
# minutes on an H100 with 16 cores. STEPS picks parts (default: all).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build-h100}
BIN="$BUILD/bin"
CH09="$BIN/ch09_matrix_add_transpose"
TEST="$BUILD/chapters/09_matrix_add_transpose/test_ch09_cuda"
: "${OUT:?set OUT to a writable folder}"
mkdir -p "$OUT"
TMP=$(mktemp -d)  # raw files that do not come back (sanitizer logs are appended to the log)
STEPS=${STEPS:-"tests sanitizers chapter sweeps ncu"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
LOG="$OUT/matrix_log.txt"
: > "$LOG"
failed=()
t0=$(date +%s)

# step NAME COMMAND...: runs the command, appends its output to the log, records a failure.
step() {
  local name=$1
  shift
  local s=$(date +%s)
  echo "=== $name: $*" >> "$LOG"
  "$@" >> "$LOG" 2>&1
  local rc=$?
  echo "=== $name: exit $rc after $(( $(date +%s) - s )) s" >> "$LOG"
  printf '%-34s exit %3d  %4d s\n' "$name" "$rc" "$(( $(date +%s) - s ))"
  if [ "$rc" -ne 0 ]; then failed+=("$name (exit $rc)"); fi
  return 0
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv >> "$LOG" 2>&1

# The CUDA variants, the cuBLAS peers and the OpenCL ports: OpenCL on the NVIDIA GPU, as CUDA.
CUDA_VARIANTS=cuda_add_rowmajor,cuda_add_colmajor,cuda_add_shared_paper,cuda_add_shared,cuda_add_vec4,cuda_transpose_naive
CUDA_VARIANTS+=,cuda_transpose_tile_as_printed,cuda_transpose_tile,cuda_transpose_tile_padded,cuda_transpose_tile_multi
CUDA_VARIANTS+=,cuda_geam_add,cuda_geam_transpose
WIDE_VARIANTS=cpu_transpose_blocked,cuda_add_vec4,cuda_geam_add,cuda_transpose_naive,cuda_transpose_tile
WIDE_VARIANTS+=,cuda_transpose_tile_padded,cuda_transpose_tile_multi,cuda_geam_transpose,cuda_memcpy,cl_add_vec4
WIDE_VARIANTS+=,cl_transpose_naive,cl_transpose_tile,cl_transpose_tile_padded,cl_transpose_tile_multi,cl_copy

# 1. Tests: the chapter's (every variant against the CPU reference at the awkward shapes, in every
#    type, beyond the L2; the printed kernels' failures), the matrix library and the emulated kernels,
#    the CLI and dump checks, the exercise's worked answer and its grading (the skeleton must fail).
if want tests; then
step "ctest ch09 (OpenCL on the GPU)" env GPGPU_CL_TYPE=gpu ctest --test-dir "$BUILD" \
  -R '(ch09|matrix|09_cuda_swizzled)' -LE '^exercise$' -j 4 --output-on-failure --timeout 600
fi

# 2. compute-sanitizer on every CUDA kernel at the awkward shapes (1x1 ... 4097x33, every type; the
#    printed kernels up to 2048), launches synchronised so an error points at its kernel. The four
#    tools run side by side (they spend much of their time on the host's cores); initcheck, the
#    slowest, on the variants' awkward shapes only.
if want sanitizers; then
SMALL='*AtAwkwardShapes*:PrintedKernels.*:CudaLaunch.*'
sanitize() {
  local tool=$1 filter=$2
  GPGPU_CUDA_SYNC=1 compute-sanitizer --tool "$tool" --error-exitcode 3 "$TEST" --gtest_filter="$filter" \
    --gtest_brief=1 > "$TMP/sanitizer_$tool.log" 2>&1
}
pids=()
for tool in memcheck racecheck synccheck initcheck; do
  filter=$SMALL
  [ "$tool" = initcheck ] && filter='*AtAwkwardShapes*'
  sanitize "$tool" "$filter" &
  pids+=("$tool:$!")
done
for p in "${pids[@]}"; do
  tool=${p%%:*}
  s=$(date +%s)
  wait "${p#*:}"
  rc=$?
  { echo "=== sanitizer $tool: exit $rc"; cat "$TMP/sanitizer_$tool.log"; } >> "$LOG"
  printf '%-34s exit %3d  (side by side)\n' "sanitizer $tool" "$rc"
  if [ "$rc" -ne 0 ]; then failed+=("sanitizer $tool (exit $rc)"); fi
done
fi

# 3. The chapter: 8192² float (768 MiB per add, beyond the 50 MB L2: the goals of the issue) and the
#    paper's 4096² int (Tab. 8's type).
if want chapter; then
step "ch09 8192^2 float" "$CH09" --cl-type gpu --n 8192 --type float --calls 10 --repeat 5 --warmup 1 \
  --json "$OUT/ch09_8192_float.json"
step "ch09 4096^2 int" "$CH09" --cl-type gpu --n 4096 --type int --calls 10 --repeat 5 --warmup 1 \
  --json "$OUT/ch09_4096_int.json"
fi

# 4. The sweeps: the paper's sizes in its add type (int, Tab. 8), every variant; and float up to
#    16384² for the variants that compete there (the serial CPU add would take minutes).
if want sweeps; then
step "ch09 sweep paper int" "$CH09" --cl-type gpu --sweep paper --type int --calls 10 --repeat 3 \
  --json "$OUT/ch09_sweep_int.json"
step "ch09 sweep wide float" "$CH09" --cl-type gpu --sweep wide --type float --calls 5 --repeat 3 \
  --variant "$WIDE_VARIANTS" --json "$OUT/ch09_sweep_wide.json"
fi

# 5. Nsight Compute at 4096² float: global-memory sectors per request (32 B sectors a warp's load or
#    store touches: 4 for a coalesced float access, 32 when every thread needs its own), shared-memory
#    bank conflicts, DRAM bytes and time, for the timed call of every CUDA kernel (the second launch
#    of each: --calls 1 --repeat 1 --warmup 0) and cuBLAS geam.
if want ncu; then
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
step "ncu 4096^2 float" ncu --metrics "$metrics" --kernel-id '::regex:(add_|transpose|geam):2' --cache-control none \
  -f -o "$TMP/ncu" "$CH09" --n 4096 --type float --calls 1 --repeat 1 --warmup 0 --no-verify --variant "$CUDA_VARIANTS"
ncu --import "$TMP/ncu.ncu-rep" --csv --page raw --print-units base > "$TMP/ncu_raw.csv" 2>> "$LOG"
python3 - "$TMP/ncu_raw.csv" "$OUT/ch09_ncu.csv" <<'PY'
import csv, re, sys
src, dest = sys.argv[1], sys.argv[2]
m = {"ld_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "ld_req": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
     "st_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "st_req": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
     "bank_ld": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     "bank_st": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
     "dram_read": "dram__bytes_read.sum", "dram_write": "dram__bytes_write.sum", "time": "gpu__time_duration.sum"}
def num(v):
    try: return float(v.replace(",", ""))
    except ValueError: return float("nan")
def ratio(a, b): return "%.2f" % (a / b) if b > 0 else "-"
rows = [r for r in csv.reader(open(src)) if r]
head = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
out = [["kernel", "ld_sectors_per_request", "st_sectors_per_request", "shared_ld_bank_conflicts",
        "shared_st_bank_conflicts", "dram_read_bytes", "dram_write_bytes", "time_ns"]]
for r in (rows[head + 1:] if head is not None else []):
    cols = rows[head]
    if len(r) != len(cols) or not r[0].strip().isdigit(): continue  # the units row
    d = dict(zip(cols, r))
    found = re.search(r"(add_[a-z0-9_]+|transpose_[a-z0-9_]+)<[a-z0-9_ ]+", d["Kernel Name"])
    name = found.group(0).replace(" ", "") + ">" if found else d["Kernel Name"][:40]
    v = {k: num(d.get(c, "nan")) for k, c in m.items()}
    out.append([name, ratio(v["ld_sec"], v["ld_req"]), ratio(v["st_sec"], v["st_req"]), "%.0f" % v["bank_ld"],
                "%.0f" % v["bank_st"], "%.0f" % v["dram_read"], "%.0f" % v["dram_write"], "%.0f" % v["time"]])
csv.writer(open(dest, "w")).writerows(out)
PY
fi

# 6. Summary (python3 reads the JSON files; without them, the log has everything).
echo
echo "== matrix.sh summary ($(( $(date +%s) - t0 )) s; details in matrix_log.txt)"
grep -hE "tests passed|tests failed out of" "$LOG" | sed 's/^/  ctest: /'
python3 - "$OUT" <<'PY'
import csv, json, os, sys
out = sys.argv[1]
def load(name):
    path = os.path.join(out, name)
    return json.load(open(path)) if os.path.exists(path) else None
for name in ("ch09_8192_float.json", "ch09_4096_int.json"):
    j = load(name)
    if j is None:
        print(f"  {name}: no result"); continue
    d = j["backends"].get("cuda", {}).get("device", {})
    print(f"  {name}: {d.get('name', '?')}, theoretical {d.get('nominal_bandwidth_gbs', float('nan')):.0f} GB/s "
          f"(memory clock x bus width), start-up cuda {j.get('startup', {}).get('cuda', {}).get('total_s', float('nan')):.3f} s, "
          f"opencl {j.get('startup', {}).get('opencl', {}).get('total_s', float('nan')):.3f} s")
    print(f"    {'variant':31} {'ms/call':>9} {'GB/s':>7} {'% lim':>6} {'w/ copies ms':>12} {'check':>5}  limit")
    best = {}
    for r in j["results"]:
        share = 100 * r["limit_share"] if r["limit_share"] is not None else float("nan")
        print(f"    {r['variant']:31} {r['ms_per_step']:9.4f} {r['gbs_min']:7.1f} {share:5.1f}% "
              f"{r['extra'].get('ms_with_copies', float('nan')):12.3f} {r['check']:>5}  {r['limit']['gbs']:.0f} {r['limit']['mix']}")
        op = r["work"]["kernel"].split("_")[0]
        key = (r["backend"], op)
        if r["check"] == "PASS" and r["backend"] != "cpu" and "geam" not in r["variant"] and op != "copy" \
                and share == share and share > best.get(key, (0, ""))[0]:
            best[key] = (share, r["variant"])
    for (backend, op), (share, variant) in sorted(best.items()):
        goal = 95 if op == "add" else 90
        print(f"    best {backend} {op}: {variant} {share:.1f}% of its limit (goal >= {goal}%: {'met' if share >= goal else 'missed'})")
    for p in j.get("port_ratios", []):
        print(f"    {p['variant']:26} / {p['original']:26} kernel {p['kernel_ratio']:.2f}x, with copies {p['with_copies_ratio']:.2f}x")
for name in ("ch09_sweep_int.json", "ch09_sweep_wide.json"):
    j = load(name)
    if j is None:
        print(f"  {name}: no result"); continue
    fails = [p for p in j["points"] if p["check"] != "PASS"]
    print(f"  {name}: {len(j['points'])} points, {len(fails)} not PASS")
    for r in j.get("port_ratios", []):
        if r["n"] in (16, 256, 4096, 16384) and r["original"] in ("cuda_add_rowmajor", "cuda_transpose_naive", "cuda_transpose_tile_multi"):
            paper = r["paper_ratio"]
            print(f"    n={r['n']:5} {r['variant']:24} kernel {r['kernel_ratio']:6.2f}x  with copies "
                  f"{r['with_copies_ratio']:6.2f}x  then {paper if paper is not None else float('nan'):5.1f}x {r['paper_table']}")
ncu = os.path.join(out, "ch09_ncu.csv")
if os.path.exists(ncu):
    rows = list(csv.reader(open(ncu)))
    print("  Nsight Compute, 4096^2 float:")
    for r in rows:
        print("    " + " ".join(f"{c:>14}" if i else f"{c:40}" for i, c in enumerate(r)))
PY
rm -rf "$TMP"
if ((${#failed[@]})); then
  echo "  FAILED: ${failed[*]}"
  exit 1
fi
echo "  all steps passed"
