# Sourced by the device scripts (cuda.sh, report.sh, ch12.sh, gemm.sh): `step NAME COMMAND...` runs the command with its
# output appended to $LOG, counts it in $steps and records a failure in the array `failed`, so that a
# batch keeps going after a failure and can list them all at the end.
failed=()
steps=0
step() {
  local name=$1
  shift
  local s=$(date +%s)
  echo "=== $name: $*" >> "$LOG"
  "$@" >> "$LOG" 2>&1
  local rc=$?
  echo "=== $name: exit $rc after $(( $(date +%s) - s )) s" >> "$LOG"
  steps=$((steps + 1))
  if [ "$rc" -ne 0 ]; then
    failed+=("$name (exit $rc)")
    printf 'step failed: %s (exit %d)\n' "$name" "$rc"
  fi
  return 0
}

# `sanitizers_start TEST FILTER`: the four compute-sanitizer tools on the GoogleTest binary TEST with
# --gtest_filter FILTER, side by side in the background (each at most 3 minutes, launches
# synchronised so that an error points at its kernel, logs in $TMP); `sanitizers_wait` collects their
# verdicts into $LOG and `failed`.
sanitizer_pids=()
sanitizers_start() {
  local tool
  for tool in memcheck racecheck synccheck initcheck; do
    GPGPU_CUDA_SYNC=1 timeout 180 compute-sanitizer --tool "$tool" --error-exitcode 3 "$1" \
      --gtest_filter="$2" --gtest_brief=1 > "$TMP/sanitizer_$tool.log" 2>&1 &
    sanitizer_pids+=("$tool:$!")
  done
}
sanitizers_wait() {
  local p tool rc
  for p in "${sanitizer_pids[@]}"; do
    tool=${p%%:*}
    wait "${p#*:}"
    rc=$?
    { echo "=== sanitizer $tool: exit $rc"; tail -40 "$TMP/sanitizer_$tool.log"; } >> "$LOG"
    printf '%-34s exit %3d  (side by side)\n' "sanitizer $tool" "$rc"
    if [ "$rc" -ne 0 ]; then failed+=("sanitizer $tool (exit $rc)"); fi
  done
  sanitizer_pids=()
}
