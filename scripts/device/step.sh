# Sourced by the device scripts (cuda.sh, report.sh): `step NAME COMMAND...` runs the command with its
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
