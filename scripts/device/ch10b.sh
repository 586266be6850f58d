#!/usr/bin/env bash
# Chapter 10b (Hopper's tensor cores) on a GPU machine of compute capability 9.0 (H100, H200): its
# tests, compute-sanitizer's four tools on every step at the sanitizer sizes, what each TF32 row does
# with a float's extra bits, every variant at 4096³, 8192³, 4097³ and 3001 x 5003 x 2049, the BF16
# leaders at 8192³ repeated in three orders, sustained runs with the GPU's power, SM clock and
# clock-event reasons sampled every 20 ms (the power limit sets the clock of the largest products),
# Nsight Compute on the BF16 leaders at 8192³, and a short table.
#
# Usage: bash scripts/device/ch10b.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build, for the
# visible GPU). STEPS picks parts (default "tests sanitizers chapter repeat sustained"; also "peer",
# fast.cu's kernel built from its source, in its own driver and as the chapter's row
# fastcu_bf16_bf16c beside step 11 and cuBLAS, for which it configures --build again with
# -DGPGPU_FASTCU_DIR, kept in that build's cache; and "ncu"). Chapter 10c's FP8 steps have their
# own batch, scripts/device/ch10c.sh.
# Files written to DIR: ch10b_log.txt (every step's output), tf32_inputs.txt, ch10b_4096.json,
# ch10b_8192.json, ch10b_4097.json, ch10b_rect.json, ch10b_8192_bf16_repeat{1,2,3}.json,
# fastcu_peer_8192.{json,txt},
# ch10b_fastcu_8192_round<r>.json (fast.cu's row, step 11 and cuBLAS with BF16 C in one run,
# PEER_ROUNDS times, default 3) and ch10b_bf16_beside_peer_8192.json,
# sustained/ (power_<n>_<variant>.csv, sustained_<n>_<variant>.json, summary.txt),
# ch10b_ncu_8192_bf16_details.txt and _raw.csv, ch10b_ncu_8192_tma_store_bf16_bf16c_details.txt (step 11),
# ch10b_summary.txt. Keeps going after a failure and
# lists every failed step at the end (exit 1 then). The default steps take about 8 minutes on an H200.
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
CH="$BUILD/bin/ch10b_tensor_cores"
TEST="$BUILD/chapters/10b_tensor_cores/test_ch10b_cuda"
TMP=$(mktemp -d)
STEPS=${STEPS:-"tests sanitizers chapter repeat sustained"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
LOG="$OUT/ch10b_log.txt"
: > "$LOG"
# step NAME COMMAND...; sanitizers_start / sanitizers_wait (the four tools side by side).
source scripts/device/step.sh
# at_chapter_sizes, tensor_core_summary (shared with ch10c.sh).
source scripts/device/tensor_cores.sh
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv >> "$LOG" 2>&1
echo "revision $(device_revision)" >> "$LOG"
"$CH" --help > /dev/null 2>&1 || { echo "no chapter 10b in $BUILD: build it first"; exit 1; }

# 1. The four sanitizers on every step in TF32 and BF16 at small awkward sizes (cut tiles included),
#    launches synchronised, side by side with the tests (no timing is taken while they run);
#    racecheck, the slowest (148-282 s in earlier runs, stopped at 540 s beside the whole suite), in three
#    shards of the tests.
if want sanitizers; then
  for tool in memcheck synccheck initcheck; do sanitizer_start "$tool" "$TEST" '*AtSanitizerSizes*'; done
  sanitizer_shards racecheck "$TEST" '*AtSanitizerSizes*' 3
fi

# 2. The chapter's tests: every variant within its bound at awkward and large sizes, the layout and
#    ring simulations, the exercise's grading; then what each TF32 row does with a float's extra
#    mantissa bits (rounded to nearest, cut, or read in full), printed by the input test.
if want tests; then
  step "ctest ch10b" ctest --test-dir "$BUILD" -R '(10b|test_tensor_core_layout|pipeline_ring)' -LE '^exercise$' -j 4 \
    --output-on-failure --timeout 600
  step "TF32 inputs" bash -c "'$TEST' --gtest_filter='*ReadsFloatsWithinTheTf32InputError*' > '$OUT/tf32_inputs.txt' 2>&1"
fi
want sanitizers && sanitizers_wait

# 3. Every variant (the library rows among them) at the chapter's sizes, each verified before timed.
want chapter && at_chapter_sizes ch10b all

# 4. The BF16 leaders at 8192³, nine timed runs each, in three orders (which one runs first, on a
#    cooler GPU, must not decide the ranking).
if want repeat; then
  orders=("stream_k_bf16,cluster_bf16,cublas_bf16,cublaslt_bf16" "cublas_bf16,cublaslt_bf16,cluster_bf16,stream_k_bf16"
          "cluster_bf16,stream_k_bf16,cublaslt_bf16,cublas_bf16")
  for i in 1 2 3; do
    step "ch10b 8192 bf16 order $i" "$CH" --variant "${orders[$((i - 1))]}" --n 8192 --repeat 9 \
      --json "$OUT/ch10b_8192_bf16_repeat$i.json"
  done
fi

# 5. Sustained runs: many calls per timed run, unverified (the runs above verify the same code),
#    with nvidia-smi sampling the run's GPU's power, SM clock and clock-event reasons every 20 ms beside each.
sustained() {  # N VARIANT CALLS
  local n=$1 v=$2 calls=$3 sampler rc
  # shellcheck disable=SC2046  # device_smi_id prints the option and its value, two words
  nvidia-smi $(device_smi_id) --query-gpu=timestamp,power.draw,power.draw.instant,clocks.current.sm,clocks_event_reasons.active,temperature.gpu \
    --format=csv -lms 20 > "$OUT/sustained/power_${n}_${v}.csv" 2>&1 &
  sampler=$!
  "$CH" --variant "$v" --n "$n" --calls "$calls" --repeat 10 --warmup 2 --no-verify \
    --json "$OUT/sustained/sustained_${n}_${v}.json"
  rc=$?
  kill "$sampler" 2> /dev/null
  wait "$sampler" 2> /dev/null
  return $rc
}
if want sustained; then
  mkdir -p "$OUT/sustained"
  for v in cluster_bf16 stream_k_bf16 cublas_bf16; do step "sustained 8192 $v" sustained 8192 "$v" 200; done
  for v in cluster_bf16 stream_k_bf16; do step "sustained 4096 $v" sustained 4096 "$v" 1000; done
  step "sustained summary" bash -c "python3 scripts/device/power_summary.py '$OUT/sustained' > '$OUT/sustained/summary.txt'"
fi

# 5b. The public BF16 peer (STEPS=peer): fast.cu's last kernel, built from its source in FASTCU_DIR
#     (default .peers/fast.cu: an ignored folder that a device call carries, since the machine reaches
#     no network; fetch it with `git clone https://github.com/pranjalssh/fast.cu .peers/fast.cu`).
#     First its own driver, scripts/device/peers/fastcu_peer.cu, which checks every element of its C
#     against cuBLAS's and times the two. Then the chapter's row of it: the build in --build configured
#     again with -DGPGPU_FASTCU_DIR (kept in that build's cache: later builds there have the row too)
#     and the chapter and its test rebuilt; the row's tests (square sizes, multiples of 256); and the
#     row timed by the chapter's own loop beside step 11 and cuBLAS with BF16 C at 8192³, each verified
#     against the FP64 reference first, PEER_ROUNDS times (default 3), the three in turned orders.
#     Last, the chapter's BF16 rows at 8192³ (BF16_ROWS).
BF16_ROWS=${BF16_ROWS:-tma_store_bf16_bf16c,cublas_bf16_bf16c,tma_store_bf16,cluster_bf16,cublas_bf16}
if want peer; then
  FASTCU_DIR=${FASTCU_DIR:-.peers/fast.cu}
  if [ -f "$FASTCU_DIR/examples/matmul/matmul_12.cuh" ]; then
    FASTCU_DIR=$(cd "$FASTCU_DIR" && pwd)
    # Its own Makefile's flags that matter here (NDEBUG: its asserts name an undeclared variable).
    step "fast.cu peer build" nvcc -gencode arch=compute_90a,code=sm_90a -std=c++17 -O3 -DNDEBUG \
      --expt-relaxed-constexpr -w -I "$FASTCU_DIR" scripts/device/peers/fastcu_peer.cu -o "$TMP/fastcu_peer" \
      -lcublas -lcuda
    { echo "fast.cu source: $FASTCU_DIR at $(cat "$FASTCU_DIR/COMMIT" 2> /dev/null || echo 'an unrecorded commit')"; } >> "$LOG"
    step "fast.cu peer 8192" bash -c "'$TMP/fastcu_peer' --n 8192 --json '$OUT/fastcu_peer_8192.json' | tee '$OUT/fastcu_peer_8192.txt'"
    step "fast.cu row: configure" cmake -S . -B "$BUILD" -DGPGPU_FASTCU_DIR="$FASTCU_DIR"
    step "fast.cu row: build" cmake --build "$BUILD" --target ch10b_tensor_cores test_ch10b_cuda
    step "fast.cu row: tests" "$TEST" --gtest_filter='*/fastcu_bf16_bf16c'
    # Step 11 also on the fewest clusters for its rounds (tma_store_bf16_bf16c_even): whether the
    # grid's size, which sets the tiles each round reads, is what fast.cu's kernel gains on.
    rows=(fastcu_bf16_bf16c tma_store_bf16_bf16c tma_store_bf16_bf16c_even cublas_bf16_bf16c)
    for ((round = 1; round <= ${PEER_ROUNDS:-3}; round++)); do
      order=""
      for ((i = 0; i < ${#rows[@]}; i++)); do  # each round starts one row later
        order+="${order:+,}${rows[(round - 1 + i) % ${#rows[@]}]}"
      done
      step "fast.cu row beside step 11, 8192, round $round" "$CH" --variant "$order" --n 8192 --repeat 5 --warmup 1 \
        --json "$OUT/ch10b_fastcu_8192_round$round.json"
    done
  else
    failed+=("fast.cu peer (no source in $FASTCU_DIR: see scripts/device/ch10b.sh, step 5b)")
  fi
  step "BF16 rows 8192 beside the peer" "$CH" --variant "$BF16_ROWS" --n 8192 --repeat 5 --warmup 1 \
    --json "$OUT/ch10b_bf16_beside_peer_8192.json"
fi

# 6. Nsight Compute on the cluster and stream-K kernels and cuBLAS's at 8192³ (one launch each after
#    the first): what limits them, with each kernel's SM clock in its page.
if want ncu; then
  sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
            --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis)
  step "ncu 8192 bf16" ncu "${sections[@]}" --launch-skip 1 --launch-count 3 \
    --kernel-name 'regex:gemm_cluster|gemm_stream_k|sm90_xmma' --csv --page raw \
    --log-file "$OUT/ch10b_ncu_8192_bf16_raw.csv" "$CH" --variant cluster_bf16,stream_k_bf16,cublas_bf16 \
    --n 8192 --repeat 1 --warmup 1 --no-verify
  step "ncu 8192 bf16 details" ncu "${sections[@]}" --launch-skip 1 --launch-count 3 \
    --kernel-name 'regex:gemm_cluster|gemm_stream_k|sm90_xmma' --log-file "$OUT/ch10b_ncu_8192_bf16_details.txt" \
    "$CH" --variant cluster_bf16,stream_k_bf16,cublas_bf16 --n 8192 --repeat 1 --warmup 1 --no-verify
  # Step 11 alone (one launch after the first), with the instruction counts.
  step "ncu 8192 tma_store_bf16_bf16c" ncu "${sections[@]}" --section InstructionStats --launch-skip 1 --launch-count 1 \
    --kernel-name 'regex:gemm_tma_store' --log-file "$OUT/ch10b_ncu_8192_tma_store_bf16_bf16c_details.txt" \
    "$CH" --variant tma_store_bf16_bf16c --n 8192 --repeat 1 --warmup 1 --no-verify
fi

# The short table: TFLOP/s of every variant at every size that ran, the peer's and the sustained
# runs' lines, and the verdicts.
tensor_core_summary ch10b "chapter 10b" "$OUT"/ch10b_*.json
rm -rf "$TMP"
((${#failed[@]} == 0))
