#!/usr/bin/env bash
# Chapter 10c (FP8 on Hopper's tensor cores) on a GPU machine of compute capability 9.0 (H100,
# H200): its tests, compute-sanitizer's four tools on both steps and the cuBLASLt rows at the
# sanitizer sizes and on the exercise's worked answer, the FP8 accumulator's bits and both scalings' errors against k, every variant at
# 4096³, 8192³, 4097³ and 3001 x 5003 x 2049 (cuBLASLt's FP8 and BF16 rows in the same runs),
# Nsight Compute on both steps at 8192³ (scripts/profile.sh), and a short table.
#
# Usage: bash scripts/device/ch10c.sh --out DIR [--build DIR] [--budget SECONDS]
# (the options and GPGPU_ENV_SETUP, a script sourced first: scripts/device/common.sh), with the
# project built in --build (default build/: bash scripts/build.sh, the README's build, for the
# visible GPU). STEPS picks parts (default "tests sanitizers chapter"; also "ncu").
# Files written to DIR: ch10c_log.txt (every step's output), fp8_accumulator.txt,
# ch10c_{8192,4096,4097,rect}.json, ncu/<variant>/ (profile.sh's pages, steps 1 and 2),
# ch10c_summary.txt. Keeps going after a failure and lists every failed step at the end (exit 1 then).
set -u
source "$(dirname "$0")/common.sh"
device_init "$@"
device_need_out
CH="$BUILD/bin/ch10c_fp8_tensor_cores"
TEST="$BUILD/chapters/10c_fp8_tensor_cores/test_ch10c_cuda"
ANSWER="$BUILD/exercises/10c_cuda_block_scales/solution_10c_cuda_block_scales"
TMP=$(mktemp -d)
STEPS=${STEPS:-"tests sanitizers chapter"}
want() { [[ " $STEPS " == *" $1 "* ]]; }
LOG="$OUT/ch10c_log.txt"
: > "$LOG"
# step NAME COMMAND...; sanitizer_start / sanitizers_wait (the four tools side by side).
source scripts/device/step.sh
# at_chapter_sizes, tensor_core_summary (shared with ch10b.sh).
source scripts/device/tensor_cores.sh
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv >> "$LOG" 2>&1
echo "revision $(device_revision)" >> "$LOG"
"$CH" --help > /dev/null 2>&1 || { echo "no chapter 10c in $BUILD: build it first"; exit 1; }

# 1. The four sanitizers on every row at small awkward sizes, launches synchronised, side by side
#    with the tests (no timing is taken while they run), and on the exercise's worked answer (its
#    kernel at every shape of its check).
if want sanitizers; then
  for tool in memcheck racecheck synccheck initcheck; do
    sanitizer_start "$tool" "$TEST" '*AtSanitizerSizes*'
    sanitizer_start "$tool" "$ANSWER" '*' "${tool}_answer_10c"
  done
fi

# 2. The chapter's tests: every variant within its bound at awkward and large sizes, the quantisers
#    on the CPU emulation; then the FP8 accumulator's bits (steps 1 and 2) and both scalings' errors
#    against k, printed by the chapter's test.
if want tests; then
  step "ctest ch10c" ctest --test-dir "$BUILD" -R '(10c|test_fp8)' -LE '^exercise$' -j 4 --output-on-failure --timeout 600
  step "FP8 accumulator" bash -c "'$TEST' --gtest_filter='Fp8Accumulator.*' > '$OUT/fp8_accumulator.txt' 2>&1"
fi
want sanitizers && sanitizers_wait

# 3. Every variant (cuBLASLt's FP8 and BF16 rows among them) at the chapter's sizes, each verified
#    against the FP64 product of its dequantised inputs before it is timed.
want chapter && at_chapter_sizes ch10c all

# 4. Nsight Compute on steps 1 and 2 at 8192³ through scripts/profile.sh, one at a time: the GEMM's
#    second launch (not the quantisers), the clocks as the timed runs have them, the instruction
#    counts and the warp-state samples per SASS instruction (as results/h200/ch10c_ncu_28d0719/).
if want ncu; then
  for variant in fp8_tensor fp8_block; do
    step "ncu 8192 $variant" env GPGPU_BUILD_DIR="$BUILD" GPGPU_PROFILE_OUT="$OUT/ncu/$variant" GPGPU_PROFILE_KERNEL=gemm_fp8 \
      GPGPU_PROFILE_LAUNCHES=1 GPGPU_PROFILE_SKIP=1 GPGPU_PROFILE_CLOCKS=none \
      GPGPU_PROFILE_SECTIONS="SpeedOfLight Occupancy WarpStateStats SchedulerStats InstructionStats ComputeWorkloadAnalysis MemoryWorkloadAnalysis SourceCounters" \
      bash scripts/profile.sh 10c "$variant" --n 8192
  done
fi

tensor_core_summary ch10c "chapter 10c" "$OUT"/ch10c_*.json
rm -rf "$TMP"
((${#failed[@]} == 0))
