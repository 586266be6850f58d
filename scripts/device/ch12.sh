#!/usr/bin/env bash
# Chapter 12 (what makes an algorithm GPU-friendly: paper 001's SAXPY, SSCAL, SGEMV, SGEMM and 2D
# convolution) on the GPU machine: its tests (CUDA, cuBLAS, the emulated kernels, the CPU variants,
# the OpenGL fragment shaders through the NVIDIA EGL driver),
# the four compute-sanitizer tools on its CUDA test at small awkward sizes, the chapter at its
# goal sizes in one run (the roofline and Table 1 of the README), the convolution at k = 17, SGEMV
# at 4096², the convolution on a separable filter at k = 3 and 17 (the two-pass kernel beside the 2D
# ones and NPP), SAXPY at growing n for the crossover with the copies, and a short table with the goals.
#
# Usage: bash scripts/device/ch12.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build).
# Files written to $OUT: ch12_log.txt (every step's output), ch12_goals.json (every routine at the
# goal sizes), ch12_conv_k17.json, ch12_gemv_4096.json, ch12_conv_separable_k<k>.json,
# ch12_saxpy_<n>.json (the crossover),
# ch12_summary.txt. Keeps going after a failure and lists every failed step at the end (exit 1 then).
# Takes under 5 minutes on an H100 with 16 cores. STEPS picks parts (default: all). The GL
# variants (paper 001's fragment shaders, luminance and RGBA quadrants) are in every conv2d run:
# about 30 s more, most of it at k = 17 (an estimate from chapter 02's fetch rates on the H100's
# pixel path, 20-40 G texel fetches/s: 19 G fetches per luminance call, 5 G per RGBA call).
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
CH12="$BUILD/bin/ch12_gpu_friendly"
TEST="$BUILD/chapters/12_gpu_friendly/test_ch12_cuda"
TMP=$(mktemp -d)
STEPS=${STEPS:-"tests sanitizers goals conv17 gemv4096 separable crossover"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
LOG="$OUT/ch12_log.txt"
: > "$LOG"
t0=$(date +%s)
source scripts/device/step.sh  # step NAME COMMAND...: output to $LOG, failures collected in `failed`

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv >> "$LOG" 2>&1

# 1. compute-sanitizer on our CUDA kernels at four small awkward sizes per routine (one element,
#    odd, partial blocks and tiles; the convolutions also on separable filters), launches
#    synchronised; the overlapped copies on streams at the small sizes; cuBLAS and NPP left out
#    (not our code). The four tools side by side, each at most 3 minutes, beside the tests of step 2
#    (no timing meanwhile).
if want sanitizers; then
  sanitizers_start "$TEST" '*AtSanitizerSizes*:*OverlappedInChunksOnStreams*:-*cublas*:*npp*'
fi

# 2. Tests: every CUDA, cuBLAS and NPP variant within its bound at the awkward sizes and past the L2
#    (our kernels also overlapped in chunks on streams; the convolutions also on separable filters), the
#    CPU variants, the emulated kernels, the convolution library, the CLI cases, the quick run,
#    exercise 12's worked answer on the GPU; test_ch12_gl and ch12_gpu_friendly.gl_conv2d_quick (the
#    GL shaders on the NVIDIA EGL driver; 'ch12' selects them).
if want tests; then
# (passive OpenMP waits: the sanitizers run beside it, see matrix.sh)
step "ctest ch12" env OMP_WAIT_POLICY=passive ctest --test-dir "$BUILD" \
  -R '(ch12|test_conv|level12|solution_12_|grading\.12_)' -LE '^exercise$' -j 6 \
  --output-on-failure --timeout 300
fi

if want sanitizers; then
  sanitizers_wait
fi

# 3. The goal sizes in one run: SAXPY and SSCAL at 2^28, SGEMV both ways at 16384², SGEMM at 4096³,
#    the convolution at 8192² with k = 3. Every variant beside its library peer; the roofline. The
#    conv2d runs include gl_conv2d_luminance and gl_conv2d_rgba_quadrants (the README's luminance vs
#    RGBA question and its TODO(lead): H100 numbers).
run=(--calls 5 --repeat 5 --warmup 1)
if want goals; then
step "ch12 goal sizes" "$CH12" "${run[@]}" --vector 268435456 --gemv-rows 16384 --gemv-cols 16384 --gemm 4096 \
  --image-rows 8192 --image-cols 8192 --k 3 --json "$OUT/ch12_goals.json"
fi
# 4. The convolution at k = 17 (compute-bound: the goal is a share of the FMA peak).
if want conv17; then
step "ch12 conv 8192^2 k=17" "$CH12" "${run[@]}" --routine conv2d --image-rows 8192 --image-cols 8192 --k 17 \
  --json "$OUT/ch12_conv_k17.json"
fi
# 5. SGEMV at 4096² (16 MiB of A: L2-resident on an H100, where cuBLAS reached 1.5 TB/s).
if want gemv4096; then
step "ch12 sgemv 4096^2" "$CH12" "${run[@]}" --routine sgemv,sgemv_t --gemv-rows 4096 --gemv-cols 4096 \
  --json "$OUT/ch12_gemv_4096.json"
fi
# 5b. The convolution on a rank-one filter at 8192²: the two-pass separable kernel (4k FLOPs per
#     pixel) beside the 2D kernels and NPP on the same filter, at k = 3 (memory-bound either way) and
#     k = 17 (where the 2D kernels are bound by their FMAs).
#     The CPU variant is left out (its k = 17 runs take a minute; conv17 has it on a random filter).
if want separable; then
sep=cuda_conv2d_tiled,cuda_conv2d_register,cuda_conv2d_separable
"$CH12" --help | grep -q npp_conv2d && sep+=,npp_conv2d  # built only where CMake found NPP
for k in 3 17; do
  step "ch12 conv separable 8192^2 k=$k" "$CH12" "${run[@]}" --routine conv2d --filter separable --variant "$sep" \
    --image-rows 8192 --image-cols 8192 --k $k --json "$OUT/ch12_conv_separable_k$k.json"
done
fi
# 6. SAXPY from 2^14 to 2^28: where the GPU with its copies overtakes the CPU (the crossover).
if want crossover; then
for e in 14 16 18 20 22 24 26 28; do
  step "ch12 saxpy 2^$e" "$CH12" --calls 5 --repeat 3 --warmup 1 --routine saxpy --vector $((1 << e)) \
    --json "$OUT/ch12_saxpy_$e.json"
done
fi

# 7. Summary.
echo
echo "== ch12.sh summary ($(( $(date +%s) - t0 )) s; details in ch12_log.txt)"
grep -hE "tests passed|tests failed out of" "$LOG" | sed 's/^/  ctest: /'
# The results' rows, where a step made some (a run of the sanitizers alone makes none).
compgen -G "$OUT/ch12_*.json" > /dev/null && python3 - "$OUT" <<'PY' | tee "$OUT/ch12_summary.txt"
import glob, json, os, sys
out = sys.argv[1]
def load(name):
    path = os.path.join(out, name)
    return json.load(open(path)) if os.path.exists(path) else None
def rows(j):
    shares = j.get("library_share", {})
    print(f"    {'variant':22} {'routine':8} {'GB/s':>8} {'% limit':>8} {'GFLOP/s':>9} {'% FMA':>6} {'% lib':>6} {'ms pinned':>9} {'ms overl.':>9} check")
    for r in j["results"]:
        e, s = r["extra"], shares.get(r["variant"])
        f = lambda v, fmt: fmt % v if isinstance(v, (int, float)) else "-"
        print(f"    {r['variant']:22} {e.get('routine',''):8} {r['gbs_min']:8.1f} {f(r.get('limit_share') and 100*r['limit_share'], '%7.1f%%'):>8} "
              f"{r['gflops']:9.1f} {f(e.get('peak_share') and 100*e['peak_share'], '%5.1f%%'):>6} "
              f"{f(s and 100*s, '%5.1f%%'):>6} {f(e.get('ms_with_pinned'), '%9.3f'):>9} {f(e.get('ms_with_overlapped'), '%9.3f'):>9} {r['check']}")
def goal(j, variant, key, at_least, what):
    r = next((r for r in j["results"] if r["variant"] == variant), None) if j else None
    if r is None:
        print(f"  goal {what}: {variant} did not run"); return
    v = r.get("limit_share") if key == "limit" else r["extra"].get("peak_share")
    ok = v is not None and v >= at_least
    print(f"  goal {what}: {variant} {100*v if v is not None else float('nan'):.1f}% (>= {100*at_least:.0f}%: {'met' if ok else 'missed'})")
for name in ("ch12_goals.json", "ch12_conv_k17.json", "ch12_gemv_4096.json", "ch12_conv_separable_k3.json", "ch12_conv_separable_k17.json"):
    j = load(name)
    print(f"  {name}: " + ("no result" if j is None else ""))
    if j: rows(j)
g, c17 = load("ch12_goals.json"), load("ch12_conv_k17.json")
for v, key, x, what in (("cuda_saxpy", "limit", 0.95, "SAXPY 2^28"), ("cuda_sscal", "limit", 0.95, "SSCAL 2^28"),
                        ("cuda_sgemv_warp", "limit", 0.90, "SGEMV 16384²"), ("cuda_sgemv_t_tiled", "limit", 0.90, "SGEMV_T 16384²"),
                        ("cuda_conv2d_tiled", "limit", 0.85, "conv k=3 8192²"), ("cuda_conv2d_register", "limit", 0.85, "conv k=3 8192²"),
                        ("cuda_conv2d_float4", "limit", 0.85, "conv k=3 8192²"), ("cuda_conv2d_aligned", "limit", 0.85, "conv k=3 8192²")):
    goal(g, v, key, x, what)
goal(c17, "cuda_conv2d_tiled", "peak", 0.50, "conv k=17 8192²")
goal(c17, "cuda_conv2d_register", "peak", 0.50, "conv k=17 8192²")
goal(c17, "cuda_conv2d_float4", "peak", 0.50, "conv k=17 8192²")
# Paper 001's own technique (Fig. 2): the RGBA four-quadrant packing against the luminance shader.
for j, k in ((g, 3), (c17, 17)):
    gl = {r["variant"]: r for r in (j or {}).get("results", []) if r["backend"] == "gl"}
    lum, rgba = gl.get("gl_conv2d_luminance"), gl.get("gl_conv2d_rgba_quadrants")
    if lum and rgba:
        print(f"  GL conv k={k}: luminance {lum['items_per_s']/1e9:.2f} GPix/s ({lum['check']}), RGBA quadrants "
              f"{rgba['items_per_s']/1e9:.2f} GPix/s ({rgba['check']}): RGBA/luminance {rgba['items_per_s']/lum['items_per_s']:.2f}x "
              f"(paper 001 on the NV44: about 4x); {rgba['extra'].get('ms_with_copies', float('nan')):.1f} ms with copies")
    else:
        print(f"  GL conv k={k}: no GL rows")
for j, k in ((g, 3), (c17, 17), (load("ch12_conv_separable_k3.json"), "3 separable"), (load("ch12_conv_separable_k17.json"), "17 separable")):
    for r in (j or {}).get("results", []):
        if r["extra"].get("routine") == "conv2d" and r["backend"] == "cuda":
            print(f"  conv k={k}: {r['variant']:22} {r['items_per_s']/1e9:7.1f} GPix/s")
print("  crossover (SAXPY, best GPU with pinned / pageable / overlapped copies vs best CPU, GFLOP/s):")
for path in sorted(glob.glob(os.path.join(out, "ch12_saxpy_*.json")), key=lambda p: int(p.rsplit("_", 1)[1][:-5])):
    j = json.load(open(path))
    t = next((t for t in j.get("table1", []) if t["routine"] == "saxpy"), None)
    if t:
        print(f"    n = 2^{path.rsplit('_',1)[1][:-5]:>2}: CPU {t['cpu_gflops'] or float('nan'):8.2f}  GPU {t['gpu_gflops'] or float('nan'):8.2f}  "
              f"w/ pinned {t['gpu_with_pinned_over_cpu'] or float('nan'):6.3f}x  w/ pageable {t['gpu_with_copies_over_cpu'] or float('nan'):6.3f}x  "
              f"overlapped {t.get('gpu_with_overlapped_over_cpu') or float('nan'):6.3f}x")
PY
rm -rf "$TMP"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED steps:"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
echo "all steps passed"
