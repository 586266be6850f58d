# Sourced by scripts/device/<topic>.sh (not a topic itself: all.sh runs only scripts/device/*.sh).
# step NAME TIMEOUT_S COMMAND...: runs COMMAND (a program, or a shell function of the script: it is
# exported and run by a child bash, with the variables the script exports) under `timeout`, appends its output to $LOG between two
# marker lines, prints one line (name, exit status, seconds) and records a failure in `failed`; the
# batch goes on after a failure. step_summary prints the count and exits 1 if any step failed.
failed=()
steps=0
step_t0=$(date +%s)
step() {
  local name=$1 limit=$2
  shift 2
  local s
  s=$(date +%s)
  echo "=== $name: $*" >> "$LOG"
  if declare -F "$1" > /dev/null; then
    # shellcheck disable=SC2163  # exports the function named by $1
    export -f "$1"
    timeout "$limit" bash -c '"$@"' step "$@" >> "$LOG" 2>&1
  else
    timeout "$limit" "$@" >> "$LOG" 2>&1
  fi
  local rc=$?
  echo "=== $name: exit $rc after $(( $(date +%s) - s )) s" >> "$LOG"
  steps=$((steps + 1))
  printf '%-44s exit %3d %5d s\n' "$name" "$rc" "$(( $(date +%s) - s ))"
  if [ "$rc" -ne 0 ]; then failed+=("$name (exit $rc)"); fi
  return 0
}
step_summary() {
  echo "$1: $steps steps, ${#failed[@]} failed, $(( $(date +%s) - step_t0 )) s in all (details: $(basename "$LOG"))"
  if ((${#failed[@]})); then
    printf 'FAILED: %s\n' "${failed[@]}"
    exit 1
  fi
  echo "$1: every step passed"
}
