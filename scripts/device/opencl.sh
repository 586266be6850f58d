#!/usr/bin/env bash
# Chapter 08 (CUDA -> OpenCL port) on the GPU machine: NVIDIA's OpenCL platform and PoCL on the CPU.
# Limits are the OpenCL stream kernel's, measured in each run for the Jacobi kernels' 11:1 mix.
#
# Usage: bash scripts/device/opencl.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build).
# Writes 6 files into $OUT: opencl.log (everything printed below the summary), ch08_gpu_{1024,2048,
# 4096}.json, ch08_pocl_1024.json, bench_ch08_gpu.json. Keeps going after a failure and lists the
# failures at the end. Takes under 3 minutes on an H100; every step has its own time limit (a hang
# does not stop the script), shortened to what is left of the --budget when one is given.
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
BIN="$BUILD/bin"
LOG="$OUT/opencl.log"
CH08="$BIN/ch08_opencl_port"
: > "$LOG"
failures=()
start_all=$(date +%s)

# run NAME TIMEOUT CMD...: runs CMD with its output appended to the log; records a failure (exit 77,
# "device missing", is recorded as such, not hidden). With --budget, not run when under 10 s are left.
run() {
  local name="$1" limit
  limit=$(device_left "$2")
  shift 2
  if [ "$limit" -lt 10 ]; then failures+=("$name (not run: no time left)"); echo "$name: not run: no time left"; return 0; fi
  local t0=$(date +%s)
  echo "=== $name: $*" >> "$LOG"
  timeout "$limit" "$@" >> "$LOG" 2>&1
  local rc=$?
  echo "=== $name: exit $rc after $(( $(date +%s) - t0 )) s" >> "$LOG"
  if [ "$rc" -ne 0 ]; then failures+=("$name (exit $rc)"); fi
  printf '%-28s exit %3d  %4d s\n' "$name" "$rc" "$(( $(date +%s) - t0 ))"
  return 0
}

echo "== OpenCL platforms" | tee -a "$LOG"
"$CH08" --list 2>&1 | tee -a "$LOG" | grep -E "^(Platform|Device):" || failures+=("--list")

# 1. Tests: every opencl-labelled test (incl. the exercise's solution and grading) on the NVIDIA
#    GPU, then the same on PoCL. The unsolved skeleton (label exercise) fails by design.
run "ctest opencl (NVIDIA GPU)" 240 env GPGPU_CL_TYPE=gpu ctest --test-dir "$BUILD" -L opencl -LE '^exercise$' -j 8 --output-on-failure
run "ctest opencl (PoCL CPU)" 240 env GPGPU_CL_TYPE=cpu ctest --test-dir "$BUILD" -L opencl -LE '^exercise$' -R 'test_|solution_|grading' -j 4 --output-on-failure

# 2. The chapter on the GPU at the paper's size and beyond, 1000 iterations each. In a build with
#    CUDA the CUDA originals run in the same process as variants cuda_simple, cuda_aligned,
#    cuda_shared and cuda_texture, and the chapter prints OpenCL time / CUDA time per kernel. The
#    first run keeps the driver's compiled-kernel cache out (cold start-up); the others may use it.
run "ch08 GPU 1024^2 (cold)" 120 env CUDA_CACHE_DISABLE=1 "$CH08" --cl-type gpu --nx 1024 --ny 1024 --repeat 5 --warmup 1 --json "$OUT/ch08_gpu_1024.json"
run "ch08 GPU 2048^2" 120 "$CH08" --cl-type gpu --nx 2048 --ny 2048 --repeat 5 --warmup 1 --json "$OUT/ch08_gpu_2048.json"
run "ch08 GPU 4096^2" 180 "$CH08" --cl-type gpu --nx 4096 --ny 4096 --repeat 3 --warmup 1 --json "$OUT/ch08_gpu_4096.json"

# 3. PoCL on the 16 host cores at 1024², beside chapter 01's C++ (printed by the chapter).
run "ch08 PoCL 1024^2" 150 "$CH08" --cl-type cpu --nx 1024 --ny 1024 --iters 200 --repeat 3 --warmup 1 --json "$OUT/ch08_pocl_1024.json"

# 4. The benchmark on the GPU (device time from profiling events).
run "bench ch08 (GPU)" 150 env GPGPU_CL_TYPE=gpu "$BIN/bench_ch08_opencl_port" --benchmark_min_time=0.2 \
  --benchmark_out="$OUT/bench_ch08_gpu.json" --benchmark_out_format=json

# 5. Summary (python3 reads the JSON files; without it, the log has everything).
echo
echo "== opencl.sh summary ($(( $(date +%s) - start_all )) s; details in opencl.log)"
grep -hE "tests passed|tests failed out of" "$LOG" | sed 's/^/  ctest: /'
echo "  ctest: $(grep -c '\*\*\*Skipped' "$LOG") test(s) skipped in all (exit 77: device missing)"
if command -v python3 >/dev/null; then
  python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
runs = [("GPU 1024", "ch08_gpu_1024.json"), ("GPU 2048", "ch08_gpu_2048.json"),
        ("GPU 4096", "ch08_gpu_4096.json"), ("PoCL 1024", "ch08_pocl_1024.json")]
loaded = {}
for label, name in runs:
    path = os.path.join(out, name)
    if not os.path.exists(path):
        continue
    j = json.load(open(path))
    if j.get("schema_version") != 2:
        print(f"  {label}: {name} has schema version {j.get('schema_version')}, this summary reads 2")
        continue
    loaded[label] = j
print(f"  {'run':10} {'variant':14} {'ms/iter':>9} {'GB/s min':>9} {'% limit':>8} {'check':>6}  limit GB/s")
for label, _ in runs:
    if label not in loaded:
        print(f"  {label:10} (no result)")
        continue
    for r in loaded[label]["results"]:
        share = r["limit_share"] * 100 if r["limit_share"] is not None else float("nan")
        print(f"  {label:10} {r['variant']:14} {r['ms_per_step']:9.4f} {r['gbs_min']:9.1f} {share:7.1f}% "
              f"{r['check']:>6}  {r['limit']['gbs']:.0f} ({r['limit']['name']})")
for label, j in loaded.items():
    device = j["backends"].get("opencl", {}).get("device", {})
    s = device.get("startup", {})
    builds = ", ".join(f"{os.path.basename(b['source'])} {b['seconds']:.3f}" for b in s.get("builds", []))
    limit_builds = ", ".join(f"{b['kernel']} {b['seconds']:.3f}" for b in device.get("stream_limit_builds", []))
    print(f"  start-up {label:9}: total {s.get('total_s', float('nan')):.3f} s = discovery "
          f"{s.get('discovery_s', 0):.3f} + context {s.get('context_s', 0):.3f} + queue {s.get('queue_s', 0):.4f}"
          f" + builds ({builds}); not start-up: limit kernel builds ({limit_builds})")
    port = j.get("opencl_port", {})
    for t in port.get("cuda_comparison", []):
        print(f"  CUDA vs OpenCL {label:9}: {t['variant']:8} OpenCL {t['opencl_ms_per_iter']:.4f} ms, "
              f"{t['cuda_variant']} {t['cuda_ms_per_iter']:.4f} ms, OpenCL/CUDA {t['opencl_over_cuda']:.3f} "
              f"(goal <= {t['goal']:.2f}: {'met' if t['met'] else 'missed'})")
    if "ch01_baseline" in port:
        b = port["ch01_baseline"]
        print(f"  ch01 on this host: 1 thread {1e3*b['single_thread_s_per_iter']:.3f} ms/iter, "
              f"{b['threads']} threads {1e3*b['multi_thread_s_per_iter']:.3f} ms/iter")
bench = os.path.join(out, "bench_ch08_gpu.json")
if os.path.exists(bench):
    for b in json.load(open(bench)).get("benchmarks", []):
        if "error_message" in b:
            print(f"  bench {b['name']:16} skipped: {b['error_message']}")
        else:
            print(f"  bench {b['name']:16} {b['real_time']:.4f} {b['time_unit']}/20 it, "
                  f"{b.get('GB/s_min', 0):.1f} GB/s min")
PY
fi
if ((${#failures[@]})); then
  echo "  FAILED: ${failures[*]}"
  exit 1
fi
echo "  all steps passed"
