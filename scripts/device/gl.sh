#!/usr/bin/env bash
# Chapter 02 (GLSL ping-pong) on the GPU machine, through NVIDIA's EGL, without any display.
#
# Usage: bash scripts/device/gl.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build).
# Writes into $OUT (6 files): ch02_ctest.log, ch02_runs.log, ch02_1024.json, ch02_4096.json,
# ch02_bench.json, ch02_field_1024.png. Ends with a short summary. Takes about 2 minutes on an H100;
# every step has its own time limit (a hang does not stop the script), shortened to what is left of
# the --budget when one is given.
# CH02_TRY=1 shrinks every size (to try the script on a machine without a GPU, e.g. on llvmpipe).
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
build=$BUILD
out=$OUT
bin=$build/bin
failures=()
log=$out/ch02_runs.log
: >"$log"

# left LIMIT: the step's own limit, or what is left of the budget when that is less (5 s at least).
left() { local l; l=$(device_left "$1"); echo $((l > 5 ? l : 5)); }

step() {  # step NAME TIMEOUT_S COMMAND...: runs, logs, records a failure (77 = no EGL: a failure here)
  local name=$1 limit
  limit=$(left "$2")
  shift 2
  echo "== $name: $*" | tee -a "$log"
  timeout "$limit" "$@" >>"$log" 2>&1
  local rc=$?
  [ "$rc" -eq 0 ] || { echo "   -> exit $rc" | tee -a "$log"; failures+=("$name (exit $rc)"); }
}

[ -x "$bin/ch02_glsl_pingpong" ] || { echo "gl.sh: $bin/ch02_glsl_pingpong not built (GL off at configure?)"; exit 1; }

# 1. Tests: unit tests, chapter smoke and CLI tests, the exercise's solution and grading, the
#    benchmark smoke. The `exercise` label (the unsolved skeleton, which must fail) is left out.
echo "== ctest -L gl"
# Chapter 12's GL tests run in scripts/device/ch12.sh (at 8192² they alone would take this step's time).
timeout "$(left 120)" ctest --test-dir "$build" -L gl -LE '^exercise$' -E 'ch12' -j 4 --output-on-failure --timeout 100 \
  >"$out/ch02_ctest.log" 2>&1 || failures+=("ctest -L gl")
tail -n 4 "$out/ch02_ctest.log"

# 2. The chapter at the paper's size (fits in the 50 MB L2) and at 4096^2 (805 MB per iteration,
#    16 times the L2). 4096^2 runs 200 iterations: the rate per iteration is the same, and the CPU
#    reference (double precision, inside the run) stays at a few seconds.
small=1024 large=4096 small_iters=1000 large_iters=200 bench='/(1024|4096)/'
[ "${CH02_TRY:-0}" = 1 ] && small=128 large=256 small_iters=50 large_iters=20 bench='/64/'
# The 1024^2 run also writes the last variant's final field as a picture (--png needs libpng).
step "ch02 ${small}x${small}" 90 "$bin/ch02_glsl_pingpong" --nx $small --ny $small --iters $small_iters \
  --repeat 5 --warmup 2 --json "$out/ch02_1024.json" --png "$out/ch02_field_1024.png"
step "ch02 ${large}x${large}" 120 "$bin/ch02_glsl_pingpong" --nx $large --ny $large --iters $large_iters \
  --repeat 3 --warmup 1 --json "$out/ch02_4096.json"

# 3. Benchmarks at 1024^2 and 4096^2, GPU time from GL_TIME_ELAPSED queries (manual time).
step "bench_ch02_glsl" 90 "$bin/bench_ch02_glsl" --benchmark_filter="$bench" --benchmark_min_time=0.2 \
  --benchmark_out="$out/ch02_bench.json" --benchmark_out_format=json

# 4. Summary.
echo
echo "==== chapter 02 (GLSL ping-pong) summary ===="
grep -m1 "^GPU:" "$log" || echo "GPU line missing (see ch02_runs.log)"
grep -m1 "^Context:" "$log"
grep -m1 "^Timer:" "$log"
grep "^Limit:" "$log" | sort -u | head -n 4
grep -q "GL_RENDERER.*NVIDIA" "$log" || echo "WARNING: GL_RENDERER is not NVIDIA: these are not GPU numbers"
if command -v python3 >/dev/null; then
  python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
print(f"{'grid':>9} {'variant':<13} {'ms/iter':>9} {'GB/s min':>9} {'% limit':>8} {'GFLOP/s':>8} {'rel.err':>8} check")
for size in (1024, 4096):
    p = out / f"ch02_{size}.json"
    if not p.exists():
        print(f"{size:>9} (no JSON)"); continue
    j = json.loads(p.read_text())
    size = f"{j['problem']['nx']}^2"
    for r in j["results"]:
        share = 100 * (r["limit_share"] or 0)
        print(f"{size:>9} {r['variant']:<13} {r['ms_per_step']:9.4f} {r['gbs_min']:9.1f} {share:7.1f}% "
              f"{r['gflops']:8.1f} {r['rel_error_l2']:8.1e} {r['check']}")
    for name, gbs, ws in sorted({(r["limit"]["name"], r["limit"]["gbs"], r["limit"]["working_set"]) for r in j["results"]}):
        print(f"{'':>9} limit: {name} {gbs:.1f} GB/s, {ws}")
    over = [r["variant"] for r in j["results"] if (r["limit_share"] or 0) > 1]
    if over:
        print(f"{'':>9} WARNING: above 100% of the limit: {', '.join(over)}")
b = out / "ch02_bench.json"
if b.exists():
    for r in json.loads(b.read_text()).get("benchmarks", []):
        gbs = r.get("GB/s_min", 0)
        print(f"bench {r['name']:<32} {r['real_time']:9.3f} {r['time_unit']} (20 it.)  {gbs:8.1f} GB/s min")
PY
fi
if ((${#failures[@]})); then
  echo "FAILED: ${failures[*]}"
  exit 1
fi
echo "all chapter 02 steps passed"
