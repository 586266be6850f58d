#!/usr/bin/env bash
# The bandwidth-bound kernels against their limits on the GPU machine, each measured beside its peer
# in the same run, then each profiled by Nsight Compute, then one table:
#   chapter 09  cuda_transpose_tma (step 14, sm_90a) and its OpenCL counterpart cl_transpose_strip
#               against cuBLAS geam (and the copies that set the limit), beside the steps before
#               (persistent, tile_panels, tile_vec4) and their ports, 8192² and 16384² float
#   chapter 07b symmetric_ring (32 B per node; step 6, beside steps 5 and 4, symmetric_prefetch and
#               symmetric) against multirow (48 B), 4096² and 8192²
#   chapter 12  SGEMV both ways at 16384² against cuBLAS, and the k = 3 convolution at 8192² (step 7,
#               the aligned tile, beside steps 4 and 5, the register and float4 tiles) against NPP,
#               in one run
#   chapter 11  cuda_fused_x4 and cuda_fused_half_x4 (2 and 4 nodes per thread, x2 and x4, beside the
#               one-node kernels cuda_fused and cuda_fused_half they replace) and
#               cuda_fused_half_loads_first (the half kernel's loads in one round), 256³ and 384³
#
# Usage: bash scripts/device/bandwidth.sh --out DIR [--build DIR] [--budget SECONDS] [--pack]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/). --pack ends the batch by packing DIR into at
# most five files that a device call brings back (it returns at most eight, 16 MiB each, two
# folders deep): bandwidth.tar.gz (everything but the binary reports) and ncu_reports.tar.gz (the
# .ncu-rep files, split into 15 MiB parts .part-00, .part-01, ... when larger; left out, with a
# note, past 45 MiB), bandwidth_summary.txt kept beside them.
# STEPS picks parts (default "runs ncu"); BW_RUNS picks runs (default all, in this order: "ch09_8192
# ch07b_4096 ch12 ch11_256 ch07b_8192 ch09_16384 ch11_384"); NCU_RESERVE_S (default 100) is what the runs leave of a
# --budget to the profiles of the kernels themselves; the peers' profiles run only while time is left.
# Files written to DIR: runs/<chapter>_<size>.json (every run, to be committed under results/<gpu>/),
# ncu/<variant>_<size>/ (scripts/profile.sh's report, details.txt, raw.csv, sass.txt, registers.txt,
# run.log), bandwidth_log.txt (every step's output), bandwidth_summary.txt (the table),
# bandwidth_ncu.csv (the profiles' figures). Keeps going after a failure and lists every failed or
# unstarted step at the end (exit 1 then).
#
# Time on an H200 with 16 cores, as measured (the log's "exit N after S s" lines, also in the
# summary): the runs ch09 8192² 16 s, ch07b 4096² 33 s, ch12 26 s, ch11 256³ 90 s (its CPU
# reference 17 s of it), ch07b 8192² 46 s, ch09 16384² 58 s; ch11 384³ estimated at 300 s (its
# reference alone is 3.4 billion node updates); the profiles 22-26 s each, the Jacobi ones 55 s
# (the tuned launch is searched again). About 18 minutes in all without a budget, so a device call
# of 10 minutes takes BW_RUNS in two parts, e.g. "ch09_8192 ch07b_4096 ch12 ch11_256 ch07b_8192"
# and then "ch09_16384 ch11_384" (a chapter's kernels are profiled only in the call that runs it).
# With --budget no step starts when less than its estimate is left.
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
pack=0
for arg in "${DEVICE_ARGS[@]}"; do
  case "$arg" in
    --pack) pack=1 ;;
    *) device_die "unknown option '$arg' (see --help)" ;;
  esac
done
BIN="$BUILD/bin"
CH07B="$BIN/ch07b_cuda_past_the_paper"
CH09="$BIN/ch09_matrix_add_transpose"
CH11="$BIN/ch11_tlm_coalesced"
CH12="$BIN/ch12_gpu_friendly"
RUNS="$OUT/runs"
mkdir -p "$RUNS" "$OUT/ncu"
STEPS=${STEPS:-"runs ncu"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
BW_RUNS=${BW_RUNS:-"ch09_8192 ch07b_4096 ch12 ch11_256 ch07b_8192 ch09_16384 ch11_384"}
pick() { [[ " $BW_RUNS " == *" $1 "* ]]; }
picked() { [[ " $BW_RUNS " == *" ch$1"[_\ ]* ]]; }  # picked 09: a run of chapter 09 is in BW_RUNS
LOG="$OUT/bandwidth_log.txt"
: > "$LOG"
t0=$(date +%s)
source scripts/device/step.sh  # step NAME COMMAND...: output to $LOG, failures collected in `failed`
notes=()                        # what was left out without being a failure

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv >> "$LOG" 2>&1
echo "revision $(device_revision), $(nproc) cores, OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}" >> "$LOG"

# A chapter that is not built is one failure, said once; its steps are not tried.
missing=" "
built() {
  [ -x "$1" ] && return 0
  if [[ "$missing" != *" $1 "* ]]; then
    missing+="$1 "
    failed+=("$(basename "$1") (not built in $BUILD)")
    printf 'not built: %s\n' "$1"
  fi
  return 1
}

# measured NAME ESTIMATE_S LIMIT_S COMMAND...: a step that starts only when its estimate fits in
# what is left of the budget (else a failure: "not run"), stopped after LIMIT_S (a hang).
measured() {
  local name=$1 estimate=$2 limit=$3
  shift 3
  if [ "$(device_left "$estimate")" -lt "$estimate" ]; then
    failed+=("$name (not run: needs about $estimate s, $(device_left) s left)")
    printf 'step not run: %s (needs about %d s)\n' "$name" "$estimate"
    return 0
  fi
  step "$name" timeout -k 10 "$limit" "$@"
}

# 1. The runs, each verified against the chapter's CPU reference (few iterations where the reference
#    costs: the Jacobi reference and spectrum cost seconds per million nodes per iteration, the TLM
#    reference about 1 s per 55 million node updates on 16 cores). The cheap runs at the first sizes
#    first, the 384³ run last. With a budget they leave NCU_RESERVE_S to the profiles.
deadline=${DEVICE_DEADLINE:-}
if want ncu && [ -n "$deadline" ]; then DEVICE_DEADLINE=$((deadline - ${NCU_RESERVE_S:-100})); fi
T09=cuda_transpose_tma,cuda_transpose_persistent,cuda_transpose_tile_panels,cuda_transpose_tile_vec4,cuda_geam_transpose
T09+=,cuda_memcpy,cl_transpose_strip,cl_transpose_persistent,cl_transpose_tile_panels,cl_transpose_tile_vec4,cl_copy
G12=cuda_sgemv_warp,cublas_sgemv,cuda_sgemv_t_tiled,cublas_sgemv_t,cuda_conv2d_register,cuda_conv2d_float4,cuda_conv2d_aligned
V11=cuda_fused,cuda_fused_half,cuda_fused_x2,cuda_fused_x4,cuda_fused_half_x2,cuda_fused_half_x4
V11+=,cuda_fused_half_loads_first
if want runs; then
  run09() {  # n, calls, estimate: every transpose beside geam and the copies that raise the limit
    built "$CH09" && measured "ch09 ${1}^2 float" "$3" 240 "$CH09" --cl-type gpu --n "$1" --type float \
      --calls "$2" --repeat 5 --warmup 1 --variant "$T09" --json "$RUNS/ch09_${1}_float.json"
  }
  run07b() {  # n, iterations, estimate
    built "$CH07B" && measured "ch07b ${1}^2" "$3" 180 "$CH07B" --nx "$1" --ny "$1" --iters "$2" \
      --warmup 1 --repeat 5 --cpu-sample-iters 0 --variant multirow,symmetric,symmetric_prefetch,symmetric_ring \
      --json "$RUNS/ch07b_$1.json"
  }
  run11() {  # n, estimate, limit, variants: 60 steps (the source peaks at step 48: FP16 is checked on real fields)
    built "$CH11" && measured "ch11 ${1}^3" "$2" "$3" "$CH11" --nx "$1" --ny "$1" --nz "$1" --steps 60 \
      --repeat 3 --variant "$4" --json "$RUNS/ch11_$1.json"
  }
  pick ch09_8192 && run09 8192 10 20
  pick ch07b_4096 && run07b 4096 100 35
  if pick ch12 && built "$CH12"; then
    if "$CH12" --help 2>/dev/null | grep -q npp_conv2d; then
      G12+=,npp_conv2d
    else
      notes+=("npp_conv2d is not built (CMake found no NPP): the convolution runs without its peer")
    fi
    # SGEMV and the convolution in one run, as the chapter's goal run has them: the limit streams
    # as many bytes as the largest routine (A, 1 GiB).
    measured "ch12 sgemv 16384^2, conv 8192^2 k=3" 30 240 "$CH12" --calls 5 --repeat 5 --warmup 1 \
      --gemv-rows 16384 --gemv-cols 16384 --image-rows 8192 --image-cols 8192 --k 3 --variant "$G12" \
      --json "$RUNS/ch12_gemv_conv.json"
  fi
  pick ch11_256 && run11 256 95 300 "$V11"
  pick ch07b_8192 && run07b 8192 48 50
  pick ch09_16384 && run09 16384 5 60
  # 384³ without the x2 steps (not in the table): its reference alone is 3.4 billion node updates.
  pick ch11_384 && run11 384 300 480 cuda_fused,cuda_fused_x4,cuda_fused_half,cuda_fused_half_x4,cuda_fused_half_loads_first
fi
DEVICE_DEADLINE=$deadline

# 2. Nsight Compute through scripts/profile.sh, one variant per call, alone, without the CPU
#    reference (--no-verify: the runs above verified these kernels): the throughputs (DRAM and
#    memory against compute), the memory tables (sectors per request, DRAM bytes), occupancy and its
#    limiters, the warp states (stall reasons), the schedulers (issue activity), the instruction
#    mix, the launch, and the source counters (per-instruction sectors, uncoalesced accesses). The
#    clocks are left as the timed runs have them (ncu locks them at base by default). The first
#    two launches of the variant's range: two calls, iterations or steps (a library peer may launch
#    more than one kernel per call).
profile() {  # profile CHAPTER VARIANT SIZE ESTIMATE_S [chapter options]: into ncu/VARIANT_SIZE/
  local chapter=$1 variant=$2 size=$3 estimate=$4
  shift 4
  measured "ncu $variant $size" "$estimate" 180 env GPGPU_BUILD_DIR="$BUILD" GPGPU_PROFILE_OUT="$OUT/ncu/${variant}_$size" \
    GPGPU_PROFILE_LAUNCHES=2 GPGPU_PROFILE_CLOCKS=none GPGPU_PROFILE_SECTIONS="$SECTIONS" \
    bash scripts/profile.sh "$chapter" "$variant" "$@"
}
SECTIONS="SpeedOfLight MemoryWorkloadAnalysis MemoryWorkloadAnalysis_Tables Occupancy WarpStateStats SchedulerStats"
SECTIONS+=" InstructionStats LaunchStats SourceCounters"
P09=(--n 8192 --type float --calls 2 --no-verify)
P12G=(--gemv-rows 16384 --gemv-cols 16384 --calls 2 --no-verify)
P12C=(--image-rows 8192 --image-cols 8192 --k 3 --calls 2 --no-verify)
P11=(--nx 256 --ny 256 --nz 256 --steps 2 --no-verify)
# Jacobi: the launch the 4096² run tuned (the tuner's candidates would be the profiled launches).
jacobi() {  # the options of the Jacobi profile of variant $1
  local launch=""
  [ -f "$RUNS/ch07b_4096.json" ] && launch=$(python3 scripts/device/bandwidth_summary.py launch "$RUNS/ch07b_4096.json" "$1")
  [ -n "$launch" ] || { launch=--no-tune; echo "ncu $1: no tuned launch in runs/ch07b_4096.json, profiled with --no-tune" >> "$LOG"; }
  # shellcheck disable=SC2086  # two options and their values
  echo --nx 4096 --ny 4096 --iters 2 --no-verify --cpu-sample-iters 0 $launch
}
if want ncu; then
  # The kernels themselves first.
  picked 09 && built "$CH09" && profile 09 cuda_transpose_tma 8192 25 "${P09[@]}"
  # shellcheck disable=SC2046  # the options word by word
  picked 07b && built "$CH07B" && profile 07b symmetric_ring 4096 55 $(jacobi symmetric_ring)
  if picked 12 && built "$CH12"; then
    profile 12 cuda_sgemv_warp 16384 25 "${P12G[@]}"
    profile 12 cuda_sgemv_t_tiled 16384 25 "${P12G[@]}"
    profile 12 cuda_conv2d_aligned 8192 25 "${P12C[@]}"
  fi
  if picked 11 && built "$CH11"; then
    profile 11 cuda_fused_half_loads_first 256 25 "${P11[@]}"
    profile 11 cuda_fused_half_x4 256 25 "${P11[@]}"
    profile 11 cuda_fused_x4 256 25 "${P11[@]}"
  fi
  # Then the peers, while time is left (a peer left out is a note, not a failure).
  peer() {  # as profile
    if [ "$(device_left "$4")" -lt "$4" ]; then notes+=("no profile of peer $2 (no time left)"); return 0; fi
    profile "$@"
  }
  picked 09 && built "$CH09" && peer 09 cuda_geam_transpose 8192 25 "${P09[@]}"
  picked 09 && built "$CH09" && peer 09 cuda_transpose_tile_panels 8192 25 "${P09[@]}"  # the best step before
  # shellcheck disable=SC2046
  picked 07b && built "$CH07B" && peer 07b multirow 4096 55 $(jacobi multirow)
  # shellcheck disable=SC2046
  picked 07b && built "$CH07B" && peer 07b symmetric_prefetch 4096 55 $(jacobi symmetric_prefetch)  # the step before
  if picked 11 && built "$CH11"; then  # the one-node kernels the x4 ones replace
    peer 11 cuda_fused_half 256 25 "${P11[@]}"
    peer 11 cuda_fused 256 25 "${P11[@]}"
  fi
  if picked 12 && built "$CH12"; then
    peer 12 cublas_sgemv 16384 25 "${P12G[@]}"
    peer 12 cublas_sgemv_t 16384 25 "${P12G[@]}"
    [[ ",$G12," == *,npp_conv2d,* ]] && peer 12 npp_conv2d 8192 25 "${P12C[@]}"
  fi
fi

# 3. Summary: each step's time (to check the estimates above), the table, what failed.
echo
echo "== bandwidth.sh summary: $steps steps, $(( $(date +%s) - t0 )) s (details in bandwidth_log.txt)"
grep -E "^=== .*: exit [0-9]+ after" "$LOG" | sed -E 's/^=== (.*): exit ([0-9]+) after ([0-9]+) s/  \1: exit \2, \3 s/'
python3 scripts/device/bandwidth_summary.py table "$OUT" > "$OUT/bandwidth_summary.txt" 2>&1 ||
  failed+=("summary (see above)")
cat "$OUT/bandwidth_summary.txt"
if ((${#notes[@]})); then printf '  note: %s\n' "${notes[@]}"; fi

# 4. Packing for a device call that brings back few files.
if ((pack)); then
  reports=$(cd "$OUT" && find ncu -name '*.ncu-rep' | sort)
  if [ -n "$reports" ]; then
    # shellcheck disable=SC2086  # names without spaces (ncu/<variant>_<size>/report.ncu-rep)
    tar -czf "$OUT/ncu_reports.tar.gz" -C "$OUT" $reports
    size=$(stat -c %s "$OUT/ncu_reports.tar.gz")
    if ((size > 45 * 1024 * 1024)); then
      rm -f "$OUT/ncu_reports.tar.gz"
      echo "  note: the binary reports ($size B packed) are left out; ncu/*/ keeps their text pages"
    elif ((size > 15 * 1024 * 1024)); then
      split -b 15M -d "$OUT/ncu_reports.tar.gz" "$OUT/ncu_reports.tar.gz.part-" && rm -f "$OUT/ncu_reports.tar.gz"
      echo "  ncu_reports.tar.gz in parts: cat ncu_reports.tar.gz.part-* | tar -xz"
    fi
  fi
  kept=()
  for f in runs ncu bandwidth_log.txt bandwidth_summary.txt bandwidth_ncu.csv; do
    [ -e "$OUT/$f" ] && kept+=("$f")
  done
  tar -czf "$OUT/bandwidth.tar.gz" -C "$OUT" --exclude='*.ncu-rep' "${kept[@]}" &&
    rm -rf "${OUT:?}/runs" "${OUT:?}/ncu" "$OUT/bandwidth_log.txt" "$OUT/bandwidth_ncu.csv"
  echo "  packed into $OUT: $(cd "$OUT" && printf '%s ' *)"
fi
if ((${#failed[@]})); then
  echo "  FAILED: ${failed[*]}"
  exit 1
fi
echo "  all steps passed"
