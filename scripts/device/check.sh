#!/usr/bin/env bash
# The whole repository on a GPU machine after a change: the README's own build (no architecture
# given: CMake builds for the visible GPU, chapters 10b and 10c's sm_90a steps included on an H100 or H200),
# the whole test suite (every test `ctest --preset default` runs, at -j equal to the cores), then
# compute-sanitizer's four tools on every chapter's kernels (07c, 10b, 10c and 13 included), `--variant all` on
# every chapter, and each chapter's headline run beside the committed results of the same GPU where
# there are some (the folder headline/ under results/h200/check/ for an H200), else of the H100 (shown, not judged), with
# a short table last. Chapter 13's multi-GPU runs (scripts/device/ch13.sh) join where there are two
# GPUs or more.
#
# Usage: bash scripts/device/check.sh --out DIR [--build DIR] [--budget SECONDS]
#        (options and GPGPU_ENV_SETUP: scripts/device/common.sh; the default build folder here is
#        build/, the README's). STEPS picks parts (default all): "build tests sanitizers all headline"
#        (each part alone on the GPU: the tests, then the sanitizers, then the rest; HEADLINE, a regular
#        expression, picks headline runs by name; SANITIZER_TOPICS, a list, the sanitizers' topic
#        scripts, default every one; CH13_STEPS the parts of chapter 13's run). CTEST_JOBS sets the tests'
#        -j (default: the number of cores; each test then gets two OpenMP threads, at -j 1 every core); CTEST_ARGS adds ctest options, e.g. "-I 530,700" for the tests
#        a call that ran out of time did not reach (-I counts positions in the list of tests left once the
#        exercises are excluded, not the numbers "#N" ctest prints: they differ once an exercise has
#        come before a test; at -j 1 a test's position is the "K" of the output's "K/775"), and
#        "--stop-time HH:MM:SS" to stop a piece in time (the test running then is cut, reported as a
#        timeout: the next piece starts at its position). Files written to DIR: check_log.txt, check_summary.txt,
#        configure.txt, tests.txt, sanitizers.txt, headline/*.json, each topic's sanitizer logs under
#        DIR/sanitizers/, and chapter 13's multi-GPU files under DIR/ch13/.
set -u
source "$(dirname "$0")/common.sh"
[ -n "${BUILD:-}" ] || BUILD=$(cd "$(dirname "$0")/../.." && pwd)/build  # the README's build folder
device_init "$@"
device_need_out
STEPS=${STEPS:-"build tests sanitizers all headline"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
BIN="$BUILD/bin"
LOG="$OUT/check_log.txt"
: > "$LOG"
source scripts/device/step.sh
echo "revision $(device_revision)" >> "$LOG"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$LOG" 2>&1

gpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU ')
if want build; then
  # What scripts/build.sh does, into --build: no architecture given (cmake/CudaArchitectures.cmake).
  step "configure" bash -c "cmake -S . -B '$BUILD' -G Ninja -DCMAKE_BUILD_TYPE=Release > '$OUT/configure.txt' 2>&1"
  cat "$OUT/configure.txt" >> "$LOG"
  step "build" cmake --build "$BUILD" -j "$(nproc)"
fi

# The whole suite as `ctest --preset default` runs it (every test but the unsolved exercises; the
# grading tests prove each skeleton fails and each answer passes), stdin closed (an MPI test waiting
# on it stalls), then compute-sanitizer's runs: each topic script's sanitizer step (its tests at
# small, awkward sizes), the topics side by side. The tests' OpenMP loops get two threads each, so that
# the parallel tests do not oversubscribe the host's cores (their CPU reference and baselines spin-wait).
# The suite and the sanitizers one after the other: measured on one H200 with 16 cores, the suite
# alone took about 240 s, and every topic's sanitizers together, alone on the GPU, finished within
# 420 s but for one run; side by side the suite took 584 s and five sanitised runs passed their
# 540 s limit, so running both at once saved no time and lost the sanitizers' verdicts.
run_tests() {
  # Two threads per test when tests run side by side, not exported: the headline runs later in this
  # shell take every core for their CPU reference and spectrum (on two, a 4096² run spends about a
  # minute on the host). At -j 1 the one test takes every core.
  local jobs=${CTEST_JOBS:-$(nproc)} threads=2
  [ "$jobs" = 1 ] && threads=$(nproc)
  # shellcheck disable=SC2086  # CTEST_ARGS is a list of options
  OMP_NUM_THREADS=$threads ctest --test-dir "$BUILD" -LE '^exercise$' -j "$jobs" --timeout 900 \
    --output-on-failure ${CTEST_ARGS:-} < /dev/null 2>&1 | tee "$OUT/tests.txt"
  return "${PIPESTATUS[0]}"
}
run_sanitizers() {
  local rc=0 topic pids=() i=0 gpu
  mkdir -p "$OUT/sanitizers"
  # Every topic at once: all their sanitised processes share the GPU and the cores, so each tool's limit
  # (a hang guard) is raised from its topic's own: measured on an H200 with 16 cores, chapter 11's
  # racecheck took 226 s beside one other topic and passed 300 s beside all of them. With two GPUs or
  # more the topics take turns (CUDA_VISIBLE_DEVICES; chapter 13 gets every GPU, it needs them).
  # In this order the heaviest (tlm, matrix, ch07c, ch10b) alternate between two GPUs.
  for topic in ${SANITIZER_TOPICS:-tlm matrix ch07c ch10b cuda gemm ch10c ch12 ch13}; do
    gpu=()
    if ((gpus >= 2)) && [ "$topic" != ch13 ]; then gpu=("CUDA_VISIBLE_DEVICES=$((i % gpus))"); i=$((i + 1)); fi
    # What is left of this script's budget goes with each topic: without it a topic's tools each
    # took their full limit from their own start and the whole ran past the budget.
    env "${gpu[@]}" SANITIZER_LIMIT_S="${SANITIZER_LIMIT_S:-540}" STEPS=sanitizers \
      bash "scripts/device/$topic.sh" --out "$OUT/sanitizers/$topic" --build "$BUILD" \
      ${DEVICE_DEADLINE:+--budget "$(device_left)"} > "$OUT/sanitizers/$topic.txt" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  cat "$OUT"/sanitizers/*.txt | tee "$OUT/sanitizers.txt"
  return $rc
}
# Each a step (step.sh: its output into the log, its time and verdict), and a file of its own.
want tests && step tests run_tests
want sanitizers && step sanitizers run_sanitizers

# --variant all: every variant that can run here runs (the others are named with their reason),
# and the run passes.
if want all; then
  for ch in ch01_cpu_jacobi ch02_glsl_pingpong ch03_cuda_simple ch04_cuda_aligned ch05_cuda_pitched \
            ch06_cuda_shared ch07_cuda_texture ch07b_cuda_past_the_paper ch07c_cuda_temporal_blocking; do
    step "$ch --variant all" "$BIN/$ch" --quick --variant all
  done
  for ch in ch08_opencl_port ch09_matrix_add_transpose ch10_matrix_multiply ch11_tlm_coalesced; do
    step "$ch --variant all --cl-type gpu" "$BIN/$ch" --quick --variant all --cl-type gpu
  done
  step "ch12_gpu_friendly --variant all" "$BIN/ch12_gpu_friendly" --quick --variant all  # no OpenCL in chapter 12
  step "ch10b_tensor_cores --variant all" "$BIN/ch10b_tensor_cores" --quick --variant all
  step "ch10c_fp8_tensor_cores --variant all" "$BIN/ch10c_fp8_tensor_cores" --quick --variant all
  step "ch13_multi_gpu_jacobi --variant all" "$BIN/ch13_multi_gpu_jacobi" --quick --variant all --gpus "$gpus"
  step "ch10 --variant all --type double" "$BIN/ch10_matrix_multiply" --quick --variant all --type double --cl-type gpu
  step "ch09 --variant all --type int" "$BIN/ch09_matrix_add_transpose" --quick --variant all --type int --cl-type gpu
fi

# The headline runs, the same command lines as the committed results they are compared with.
# HEADLINE (a regular expression, default every run) picks them by name, so that a machine lent in
# pieces of a few minutes can run them over several calls: HEADLINE='^ch0[3-7]' for the CUDA Jacobi
# chapters, HEADLINE='chapter 13' for the multi-GPU runs alone.
headline_step() { [[ "$1" =~ ${HEADLINE:-.} ]] || return 0; step "$@"; }
if want headline; then
  # What else holds a GPU as the measurements begin (a run of an earlier step that outlived its
  # limit would slow them): in the log, so that a slow row can be told from a busy GPU.
  { echo "=== processes on the GPUs before the headline runs:"
    nvidia-smi --query-compute-apps=gpu_uuid,pid,process_name,used_memory --format=csv,noheader; } >> "$LOG" 2>&1
  mkdir -p "$OUT/headline"
  H="$OUT/headline"
  for ch in ch03_cuda_simple ch04_cuda_aligned ch05_cuda_pitched ch06_cuda_shared ch07_cuda_texture ch07b_cuda_past_the_paper; do
    headline_step "$ch 4096" "$BIN/$ch" --nx 4096 --ny 4096 --iters 100 --warmup 1 --repeat 5 --cpu-sample-iters 1 \
      --json "$H/${ch}_4096.json"
  done
  headline_step "ch07c 8192" "$BIN/ch07c_cuda_temporal_blocking" --nx 8192 --ny 8192 --iters 48 --sweeps-per-trip 1,2,4,8 \
    --variant all --warmup 1 --repeat 3 --cpu-sample-iters 1 --json "$H/ch07c_8192.json"
  headline_step "ch02 4096" "$BIN/ch02_glsl_pingpong" --nx 4096 --ny 4096 --iters 200 --repeat 3 --warmup 1 --json "$H/ch02_4096.json"
  headline_step "ch08 4096" "$BIN/ch08_opencl_port" --cl-type gpu --nx 4096 --ny 4096 --repeat 3 --warmup 1 --json "$H/ch08_gpu_4096.json"
  headline_step "ch09 8192 float" "$BIN/ch09_matrix_add_transpose" --cl-type gpu --n 8192 --type float --calls 10 --repeat 5 \
    --warmup 1 --json "$H/ch09_8192_float.json"
  headline_step "ch10 4096 float" "$BIN/ch10_matrix_multiply" --cl-type gpu --calls 3 --repeat 5 --warmup 1 --tune --n 4096 \
    --json "$H/ch10_4096_float.json"
  headline_step "ch10 4096 double" "$BIN/ch10_matrix_multiply" --cl-type gpu --calls 3 --repeat 3 --warmup 1 --n 4096 --type double \
    --json "$H/ch10_4096_double.json"
  headline_step "ch11 256 cavity" "$BIN/ch11_tlm_coalesced" --nx 256 --ny 256 --nz 256 --steps 60 --repeat 3 \
    --variant cuda_aos,cuda_coalesced,cuda_fused,cuda_fused_half,opencl_coalesced,opencl_fused --json "$H/ch11_cavity_256.json"
  headline_step "ch12 goals" "$BIN/ch12_gpu_friendly" --calls 5 --repeat 5 --warmup 1 --vector 268435456 --gemv-rows 16384 \
    --gemv-cols 16384 --gemm 4096 --image-rows 8192 --image-cols 8192 --k 3 --json "$H/ch12_goals.json"
  headline_step "ch10b 8192" "$BIN/ch10b_tensor_cores" --variant all --n 8192 --json "$H/ch10b_8192.json"
  headline_step "ch10c 8192" "$BIN/ch10c_fp8_tensor_cores" --variant all --n 8192 --json "$H/ch10c_8192.json"
  # The committed runs of this GPU first (judged), then the H100's (shown beside, not judged).
  python3 scripts/device/compare_headline.py "$H" results/h200/check/headline results/h200/ch07c results/h100 results/h100_lecture \
    results/h100/issue9_check > "$OUT/check_headline.txt" 2>&1 || failed+=("headline comparison")
fi

# Chapter 13 across GPUs: its checks, sanitizers under mpirun and scaling runs (scripts/device/ch13.sh).
if want headline && ((gpus >= 2)); then
  # CH13_STEPS picks ch13.sh's parts (default all of them; "check sample" puts NVIDIA's sample beside
  # the convergence check in the same call). Always passed: this script's own STEPS, when the caller
  # exported it, must not reach ch13.sh.
  headline_step "chapter 13 on $gpus GPUs" env STEPS="${CH13_STEPS:-tests all sanitizers bench check}" bash scripts/device/ch13.sh \
    --out "$OUT/ch13" --build "$BUILD" ${DEVICE_DEADLINE:+--budget "$(device_left)"}
fi

{
  echo "check: $steps steps, $(( $(date +%s) - DEVICE_START )) s, revision $(device_revision)"
  [ -f "$OUT/check_headline.txt" ] && cat "$OUT/check_headline.txt"
  if ((${#failed[@]})); then printf 'FAILED: %s\n' "${failed[@]}"; else echo "every step passed"; fi
} | tee "$OUT/check_summary.txt"
((${#failed[@]} == 0))
