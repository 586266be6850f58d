# shellcheck shell=bash
# Sourced by the device scripts after common.sh (cuda.sh, ch12.sh, gemm.sh, tlm.sh, text.sh, report.sh,
# report_plots.sh): `step NAME COMMAND...` runs the command with its output appended to $LOG, counts
# it in $steps and records a failure in the array `failed`, so that a batch keeps going after a
# failure and can list them all at the end. With a --budget (common.sh), a step that would start with
# less than 10 s left is not run (a failure: "not run: no time left"), and a running program (not a
# shell function of the script) is stopped when the budget runs out.
failed=()
steps=0
step() {
  local name=$1
  shift
  local s left
  s=$(date +%s)
  steps=$((steps + 1))
  local limit=()
  if [ -n "${DEVICE_DEADLINE:-}" ]; then
    left=$(device_left)
    if [ "$left" -lt 10 ]; then
      echo "=== $name: not run: no time left" >> "$LOG"
      failed+=("$name (not run: no time left)")
      printf 'step not run: %s (no time left)\n' "$name"
      return 0
    fi
    declare -F "$1" > /dev/null || limit=(timeout -k 10 "$left")
  fi
  echo "=== $name: $*" >> "$LOG"
  "${limit[@]}" "$@" >> "$LOG" 2>&1
  local rc=$?
  echo "=== $name: exit $rc after $(( $(date +%s) - s )) s" >> "$LOG"
  if [ "$rc" -ne 0 ]; then
    failed+=("$name (exit $rc)")
    printf 'step failed: %s (exit %d)\n' "$name" "$rc"
  fi
  return 0
}

# `sanitizers_start TEST FILTER`: the four compute-sanitizer tools on the GoogleTest binary TEST with
# --gtest_filter FILTER, side by side in the background (each at most SANITIZER_LIMIT_S, default 5
# minutes: a topic's tools side by side on one GPU took up to 300 s; or what is left of the budget; launches synchronised so that an error points at its
# kernel, logs in $TMP). The limit only catches a hang: check.sh, which runs every topic's
# sanitizers at once on one GPU, raises it, since every topic's sanitised processes share the GPU there;
# `sanitizer_start TOOL TEST FILTER NAME` starts one tool alone, NAME labelling its log and verdict
# (a topic splits a slow tool's tests over several processes so); `sanitizers_wait` collects every
# verdict and time into $LOG and `failed`, each run counted as a step. A run past its limit is killed 10 s
# after the signal to stop (timeout -k, to its whole process group: the tested program with it), so
# that no stopped run goes on using the GPU while the next steps measure.
sanitizer_pids=()
sanitizer_start() {
  local tool=$1 test=$2 filter=$3 name=${4:-$1} limit
  limit=$(device_left "${SANITIZER_LIMIT_S:-300}")
  (
    local s=$SECONDS
    GPGPU_CUDA_SYNC=1 timeout -k 10 "$limit" compute-sanitizer --tool "$tool" --error-exitcode 3 "$test" \
      --gtest_filter="$filter" --gtest_brief=1 > "$TMP/sanitizer_$name.log" 2>&1
    local rc=$?
    echo $((SECONDS - s)) > "$TMP/sanitizer_$name.seconds"
    exit $rc
  ) &
  sanitizer_pids+=("$name:$!")
}
# `sanitizer_shards TOOL TEST FILTER SHARDS [LABEL]`: one tool on slow tests in SHARDS processes, each
# one GoogleTest shard of the filtered tests (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX), labelled LABEL_i
# (LABEL: TOOL unless given): where one process would run longest of a whole topic, its shards share
# the cores instead. One shard is sanitizer_start's one process, labelled LABEL.
sanitizer_shards() {
  local i
  if (($4 <= 1)); then sanitizer_start "$1" "$2" "$3" "${5:-$1}"; return; fi
  for ((i = 0; i < $4; i++)); do
    GTEST_TOTAL_SHARDS=$4 GTEST_SHARD_INDEX=$i sanitizer_start "$1" "$2" "$3" "${5:-$1}_$i"
  done
}
sanitizers_start() {
  local tool
  for tool in memcheck racecheck synccheck initcheck; do sanitizer_start "$tool" "$1" "$2"; done
}
sanitizers_wait() {
  local p name rc took
  for p in "${sanitizer_pids[@]}"; do
    name=${p%%:*}
    steps=$((steps + 1))
    wait "${p#*:}"
    rc=$?
    took=$(cat "$TMP/sanitizer_$name.seconds" 2> /dev/null || echo "?")
    { echo "=== sanitizer $name: exit $rc after $took s"; tail -40 "$TMP/sanitizer_$name.log"; } >> "$LOG"
    printf '%-34s exit %3d after %4s s (side by side)\n' "sanitizer $name" "$rc" "$took"
    if [ "$rc" -ne 0 ]; then failed+=("sanitizer $name (exit $rc)"); fi
  done
  sanitizer_pids=()
}
